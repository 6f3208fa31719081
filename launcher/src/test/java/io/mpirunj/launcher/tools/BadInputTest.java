package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every bad input: one line on stderr naming the problem, nothing on stdout, exit status 2. */
class BadInputTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--algo opt-tree -np 8 --model hold=x                       | --model: model spec 'hold=x': bad token 'hold=x' (expected: hold=A[+Bm],end=C[+Dm][,ports=P][,cpus=C[,wake=W[+Xm]]][,rndv=R])",
        "--algo opt-tree -np 8 --model logp:L=6,o=2                 | --model: model spec 'logp:L=6,o=2': missing 'g='",
        "--algo foo -np 8                                           | --algo foo: unknown algorithm (expected one of: sequential, chain, binomial,",
        "--algo opt-tree -np 8 --root 9                             | --root=9 outside 0..7",
        "--algo opt-tree -np 8 --root -1                            | --root=-1 outside 0..7",
        "--algo opt-tree -np 0                                      | -np 0 (expected: a number of ranks >= 1)",
        "--algo opt-tree                                            | missing -np K",
        "--algo opt-tree -np x                                      | -np x (expected: a whole number, at most 2147483647)",
        "--algo opt-tree -np 8 --size -1                            | --size -1 (expected: a number of bytes from 0 to 4611686018427387903)",
        "--algo opt-tree -np 8 --size 4611686018427387904           | --size 4611686018427387904 (expected: a number of bytes from 0 to 4611686018427387903)",
        "--algo opt-tree -np 8 --eval steps                         | --eval steps (expected: event or rounds)",
        "--algo opt-tree -np 8 --op gather                          | --op gather (expected: bcast, multicast or alltoall)",
        "--algo opt-tree -np 8 --fabric blob:3                      | --fabric: topology spec 'blob:3' not understood",
        "--algo opt-tree -np 8 --fabric mesh:6x6 --placement 1/1    | -np 8 but --placement lists 1 node (give one address per rank, or leave -np out)",
        "--algo opt-tree -np 2 --fabric mesh:6x6 --placement 1/1,1/1 | --placement: placement spec '1/1,1/1': node 1/1 given to ranks 0 and 1",
        "--algo opt-tree -np 2 --fabric mesh:6x6 --placement 1/1,7/7 | --placement: placement spec '1/1,7/7', rank 1: node address '7/7' out of range",
        "--algo opt-tree -np 2 --fabric mesh:6x6 --placement random:x | --placement: placement spec 'random:x': bad seed 'x'",
        "--algo opt-tree -np 40 --fabric mesh:6x6                   | --placement identity (the default): cannot place 40 ranks on mesh:6x6 (36 nodes)",
        "--algo opt-tree -np 40 --fabric mesh:6x6 --placement random:1 | --placement: cannot place 40 ranks on mesh:6x6 (36 nodes)",
        "--algo opt-tree -np 8 --fabric mesh:6x6 --fabric-params ss=1,sd=2 | --fabric-params: wormhole params 'ss=1,sd=2': missing 'cd='",
        "--algo opt-tree -np 8 --fabric mesh:6x6 --fabric-params hold=1 | --fabric-params: model spec 'hold=1': missing 'end='",
        "--algo opt-tree -np 8 --fabric mesh:6x6 --model hold=1,end=2 --fabric-params hold=3,end=4 | --model hold=1,end=2 and --fabric-params hold=3,end=4 are two cost models",
        "--algo opt-tree -np 8 --fabric mesh:6x6 --ports some-port  | --ports: node model 'some-port' (expected: one-port or all-port)",
        "--algo opt-tree -np 8 --placement 1/1                      | --placement 1/1 needs --fabric TOPO",
        "--algo opt-tree -np 8 --fabric-params ss=1                 | --fabric-params ss=1 needs --fabric TOPO",
        "--algo opt-tree -np 8 --ports all-port                     | --ports all-port needs --fabric TOPO (e.g. --fabric mesh:6x6); on a plain model write ports=P in --model",
        "--algo opt-mesh -np 8                                      | --algo opt-mesh needs --fabric (a mesh, torus or hypercube",
        "--algo u-mesh -np 8 --model hold=20,end=55                 | --algo u-mesh needs --fabric",
        "--algo opt-mesh -np 8 --fabric star:4                      | --algo opt-mesh needs a mesh, torus or hypercube fabric (got --fabric star:4)",
        "--algo opt-tree -np 8 --no-such-option                     | Unknown option: '--no-such-option'",
        "--algo linear-p2p -np 8                                    | --algo linear-p2p (flat tree: the root sends the whole buffer to each group rank) runs live the schedule of one of the trees; simulate that tree by its name (one of: ",
        "--algo star -np 6                                          | --algo star needs --fabric (a star graph fabric with one rank per node, e.g. --fabric star:4)",
        "--algo star --fabric star:4 -np 5                          | --algo star: star needs one rank per node of star:4: ranks=5 (expected: 24)",
        "--algo akers-star --fabric mesh:4x4 -np 16                 | --algo akers-star needs a star graph fabric with one rank per node (got --fabric mesh:4x4)",
        "--algo star --fabric star:4 --root zzzz                    | --root: bad star graph node 'zzzz'",
        "--algo star --fabric star:4 --root 99                      | --root=99 outside 0..23 (the group has -np 24 ranks) and not a node address of star:4",
    })
    void scheduleRejects(String arguments, String expected) {
        ToolRun run = ToolRun.schedule(args(arguments));
        assertOneLineUsageError(run, "mpirun-j schedule: ", expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--algo all -np 8 --model hold=                             | --model: model spec 'hold=': bad token 'hold='",
        "--algo opt-tree,nope -np 8                                 | --algo nope: unknown algorithm (expected one of: sequential,",
        "-np 8 --root 8                                             | --root=8 outside 0..7",
        "-np 0                                                      | -np 0 (expected: a number of ranks >= 1)",
        "-np 100000000                                              | -np 100000000: schedules of that many ranks need about 195312 MiB of heap (2 KiB a rank), and this JVM has at most",
        "--algo u-mesh -np 8                                        | --algo u-mesh needs --fabric",
        "--algo binomial-p2p -np 8                                  | --algo binomial-p2p (binomial tree over [root, group...] on point-to-point messages) runs live the schedule of one of the trees",
        "-np 8 --model hold=1,end=0                                 | --model: model spec 'hold=1,end=0': end=0 gives an empty message t_end 0 (expected: end=C[+Dm] with C > 0",
        "-np 8 --model logp:L=0,o=0,g=2                             | --model: model spec 'logp:L=0,o=0,g=2': L=0, o=0 give t_end = L + 2o = 0",
        "-np 8 --fabric mesh:4x4 --fabric-params hold=1,end=0       | --fabric-params: model spec 'hold=1,end=0': end=0 gives an empty message t_end 0",
        "-np 8 --fabric mesh:4x4 --fabric-params bogus=1            | --fabric-params: fabric params 'bogus=1' are neither wormhole parameters nor a cost model (expected: flit level ss=S,sd=S,cd=C,rs=R,rd=R[,flit=BYTES], or a cost model as --model: hold=A[+Bm],end=C[+Dm][,...] or logp:L=..,o=..,g=..[,ports=P])",
        "-np 8 --fabric mesh:4x4 --fabric-params sd=2,cd=2,rs=3,rd=3 | --fabric-params: wormhole params 'sd=2,cd=2,rs=3,rd=3': missing 'ss=' (expected: ss=S,sd=S,cd=C,rs=R,rd=R[,flit=BYTES])",
        "-np 9 --fabric hypercube:3                                 | --placement identity (the default): cannot place 9 ranks on hypercube:3 (8 nodes)",
        "-np 8 --fabric torus:4x4 --fabric-params ss=1,sd=1,cd=1,rs=1,rd=x | --fabric-params: wormhole params 'ss=1,sd=1,cd=1,rs=1,rd=x': bad token 'rd=x'",
    })
    void simulateRejects(String arguments, String expected) {
        ToolRun run = ToolRun.simulate(args(arguments));
        assertOneLineUsageError(run, "mpirun-j simulate: ", expected);
    }

    static void assertOneLineUsageError(ToolRun run, String prefix, String expected) {
        assertEquals(Tools.USAGE, run.exitCode(), run::toString);
        assertEquals("", run.out(), run::toString);
        assertEquals(1, run.err().lines().count(), run::toString);
        assertTrue(run.err().startsWith(prefix + expected.trim()), run::toString);
    }
}
