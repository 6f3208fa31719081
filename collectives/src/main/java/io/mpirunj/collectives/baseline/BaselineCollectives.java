package io.mpirunj.collectives.baseline;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import java.util.List;

/**
 * The baseline collective algorithms: direct point-to-point implementations of every operation,
 * the classic ones from Open MPI's {@code coll/base} and MPICH. They are the defaults (priority 10,
 * 5 or 0) until something better is registered, and the reference the schedule-based algorithms are
 * checked against.
 */
public final class BaselineCollectives implements CollectiveProvider {
    @Override
    public List<CollectiveAlgorithm> algorithms() {
        return List.of(
                new DisseminationBarrier(),
                new BinomialBcast(),
                new LinearBcast(),
                new BinomialP2pMulticast(),
                new LinearP2pMulticast(),
                new PairwiseAlltoall(),
                new LinearAlltoall(),
                new BruckAlltoall(),
                new PairwiseAlltoallv(),
                new LinearAlltoallv(),
                new BinomialGather(),
                new LinearGather(),
                new LinearGatherv(),
                new BinomialScatter(),
                new LinearScatter(),
                new LinearScatterv(),
                new RingAllgather(),
                new RingAllgatherv(),
                new BinomialReduce(),
                new RecursiveDoublingAllreduce(),
                new ReduceBcastAllreduce(),
                new RabenseifnerAllreduce(),
                new RingReduceScatter(),
                new RingReduceScatterBlock(),
                new RecursiveDoublingScan(),
                new LinearScan(),
                new RecursiveDoublingExscan(),
                new LinearExscan());
    }
}
