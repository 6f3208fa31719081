package io.mpirunj.launcher.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mpirunj.fabric.model.LinearFit;
import io.mpirunj.fabric.model.ModelFile;
import io.mpirunj.fabric.model.PairMatrixFile;
import io.mpirunj.launcher.FabricOptions;
import io.mpirunj.launcher.MpirunJ;
import io.mpirunj.runtime.fabric.FabricEmulation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j calibrate}: measures t_end and t_hold per message size with a job of N ranks
 * ({@link CalibrationProgram}), fits {@code a + b·m} to each with r², derives LogP, and with
 * {@code --pairs} the per-pair latency/bandwidth matrix. Prints a table (or {@code --json}) and writes
 * the model file ({@code --out}, {@link ModelFile}; the pair matrix beside it as {@link PairMatrixFile}).
 * On an emulated fabric ({@code --fabric-params}) it also gives the times in model units and what the
 * fabric's engine predicts for the same protocol.
 */
@Command(name = "calibrate",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Measures this network's t_end (ping-pong, ranks 0 and 1) and t_hold",
            "(back-to-back sends from rank 0 to ranks 1..k, the Nupairoj-Ni way) per",
            "message size, fits t = a + b*m (us, m in bytes) with its r^2, derives LogP",
            "L/o/g, and writes the model file --model/MPIRUNJ_MODEL and simulate --model",
            "accept. Times are Comm.wtime: on an emulated fabric, model time x the scale.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mpirun-j calibrate -np 4 --out model.json",
            "  mpirun-j calibrate -np 16 --threads --fabric mesh:4x4 \\",
            "      --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --fabric-time-scale 1 \\",
            "      --json",
            "  mpirun-j calibrate -np 8 --pairs --out model.json   # and model.pairs.json",
        })
public final class CalibrateCommand implements Callable<Integer> {
    static final List<Long> DEFAULT_SIZES = List.of(1024L, 4096L, 16384L, 65536L);
    /** Warm-up passes at most, without an emulated fabric (see --jit-warmup). */
    static final int DEFAULT_JIT_WARMUP = 30;

    @Spec
    CommandSpec spec;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N", required = true, description = "Ranks (>= 2; t_hold needs >= 3).")
    int np;

    @Option(names = "--threads", description = "Ranks as threads of this JVM (default: processes).")
    boolean threads;

    @Option(names = "--sizes", paramLabel = "LIST", split = ",",
            description = "Message sizes in bytes (default 1024,4096,16384,65536).")
    List<Long> sizes = new ArrayList<>(DEFAULT_SIZES);

    @Option(names = "--reps", paramLabel = "R", description = "Repetitions per measurement (default 5); see --statistic.")
    int reps = 5;

    @Option(names = "--statistic", paramLabel = "median|min", description = "How the repetitions of a measurement "
            + "are summarised (default median). min suits an emulated fabric on a loaded host: there the host's "
            + "delays only ever add to the model's times.")
    String statistic = "median";

    @Option(names = "--hold-sends", paramLabel = "K", description = "Back-to-back sends for t_hold (default 8, or N-1 "
            + "when fewer; at most N-1: rank 0 sends to ranks 1 to K).")
    Integer holdSends;

    /** Default back-to-back sends for t_hold, fewer on a smaller job. */
    static final int HOLD_SENDS_DEFAULT = 8;

    /** {@code --hold-sends}, or its default for {@code -np}. */
    private int holdSends() {
        return holdSends != null ? holdSends : Math.min(HOLD_SENDS_DEFAULT, np - 1);
    }

    @Option(names = "--jit-warmup", paramLabel = "PASSES", description = "Untimed passes over every measurement "
            + "(3 repetitions each) before the timed ones, repeated while any rank's JIT still compiles, at most "
            + "PASSES times (default 30; 0 on an emulated fabric, whose model time dwarfs the host's). Cold ranks "
            + "run interpreted code: at -np 8 on 2 cores a 1 KiB ping-pong measured 240-330 us instead of ~20.")
    Integer jitWarmup;

    @Option(names = "--pairs", description = "Also measure every pair's latency and bandwidth (ping-pong at "
            + "--pair-sizes) and write them as a pair matrix (TTCC's heterogeneous model reads it).")
    boolean pairs;

    @Option(names = "--pair-sizes", paramLabel = "SIZES", split = ",", hideParamSyntax = true,
            description = "The two sizes of the pair ping-pongs in bytes, SMALL,LARGE (default 0,8192).")
    List<Integer> pairSizes = new ArrayList<>(List.of(0, 8192));

    @Option(names = "--out", paramLabel = "FILE", description = "Write the fitted model here (JSON); with --pairs the "
            + "matrix goes to FILE with .pairs.json instead of .json.")
    Path out;

    @Option(names = "--json", description = "Print the result as JSON instead of a table.")
    boolean json;

    @Option(names = "--fabric", paramLabel = "SPEC", description = "Calibrate on this emulated fabric (with --fabric-params).")
    String fabric;

    @Option(names = "--placement", paramLabel = "SPEC", description = "Where the ranks sit on --fabric.")
    String placement;

    @Option(names = "--fabric-params", paramLabel = "PARAMS", description = "The emulated fabric's timing (see mpirun-j --help).")
    String fabricParams;

    @Option(names = "--fabric-time-scale", paramLabel = "US_PER_UNIT", description = "Microseconds per model unit (default 1).")
    Double fabricTimeScale;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        String problem = check();
        if (problem != null) {
            stderr.println("mpirun-j calibrate: " + problem);
            stderr.flush();
            return 2;
        }
        FabricEmulation emulation = null;
        if (fabricParams != null) {
            try {
                emulation = FabricOptions.emulation(fabric, placement, fabricParams, fabricTimeScale, List.of(), np);
            } catch (IllegalArgumentException e) {
                stderr.println("mpirun-j calibrate: " + e.getMessage());
                stderr.flush();
                return 2;
            }
        }
        JsonNode raw;
        try {
            raw = runJob();
        } catch (IOException e) {
            stderr.println("mpirun-j calibrate: " + e.getMessage());
            stderr.flush();
            return 1;
        }
        Calibration c = Calibration.of(raw, emulation, Math.min(holdSends(), np - 1));
        if (json) {
            stdout.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(c.toJson()));
        } else {
            stdout.print(c.table(describe()));
        }
        if (out != null) {
            try {
                ModelFile.write(out, c.document("calibrate " + describe()));
            } catch (IllegalArgumentException e) { // a fit no model can take (t_end 0 for an empty message)
                stdout.flush();
                stderr.println("mpirun-j calibrate: not writing " + out + ": " + e.getMessage());
                stderr.flush();
                return 1;
            }
            stdout.println("wrote " + out);
            if (c.pairs() != null) {
                Path pairFile = pairFile(out);
                PairMatrixFile.write(pairFile, c.pairs(), "us", "calibrate --pairs " + describe());
                stdout.println("wrote " + pairFile);
            }
        }
        stdout.flush();
        return 0;
    }

    static Path pairFile(Path out) {
        String name = out.getFileName().toString();
        String base = name.toLowerCase(Locale.ROOT).endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return out.resolveSibling(base + ".pairs.json");
    }

    private String check() {
        if (np < 2) {
            return "-np " + np + " (expected: >= 2 ranks; t_hold needs >= 3)";
        }
        if (sizes.isEmpty() || sizes.stream().anyMatch(s -> s < 0 || s > Integer.MAX_VALUE - 64)) {
            return "--sizes " + sizes + " (expected: byte counts >= 0)";
        }
        if (reps < 1) {
            return "--reps " + reps + " (expected: >= 1)";
        }
        if (!statistic.equals("median") && !statistic.equals("min")) {
            return "--statistic " + statistic + " (expected: median or min)";
        }
        if (jitWarmup != null && jitWarmup < 0) {
            return "--jit-warmup " + jitWarmup + " (expected: >= 0)";
        }
        if (holdSends != null && np == 2) {
            return "--hold-sends needs -np 3 or more (rank 0 sends back to back to ranks 1..K); -np 2 measures t_end only";
        }
        if (holdSends != null && (holdSends < 2 || holdSends > np - 1)) {
            return "--hold-sends " + holdSends + " with -np " + np + " (expected: 2.." + (np - 1)
                    + ": rank 0 sends back to back to ranks 1..K)";
        }
        if (pairSizes.size() != 2 || pairSizes.get(0) < 0 || pairSizes.get(1) <= pairSizes.get(0)) {
            return "--pair-sizes " + pairSizes + " (expected: SMALL,LARGE with 0 <= SMALL < LARGE)";
        }
        if (out != null && np == 2) {
            return "--out needs t_hold, which needs -np 3 or more (rank 0 sends back to back to ranks 1..k); "
                    + "-np 2 measures t_end only";
        }
        if (out != null && !ModelFile.isModelFile(out.toString())) {
            return "--out " + out + " (expected: a file name ending in .json)";
        }
        if (out != null) { // checked before the job runs, so a typo does not cost the measurement
            Path dir = out.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir)) {
                return "--out " + out + ": no such directory " + dir;
            }
            if (!Files.isWritable(dir)) {
                return "--out " + out + ": directory " + dir + " is not writable";
            }
        }
        if ((fabricParams != null || fabricTimeScale != null || placement != null) && fabric == null) {
            return "--fabric-params/--fabric-time-scale/--placement need --fabric";
        }
        if (fabric != null && fabricParams == null) {
            return "--fabric " + fabric + " needs --fabric-params (the emulated fabric's timing)";
        }
        return null;
    }

    private String describe() {
        StringBuilder sb = new StringBuilder("-np " + np + (threads ? " --threads" : ""));
        if (fabric != null) {
            sb.append(" --fabric ").append(fabric).append(" --fabric-params ").append(fabricParams)
                    .append(" --fabric-time-scale ")
                    .append(fabricTimeScale == null ? FabricEmulation.DEFAULT_MICROS_PER_UNIT : fabricTimeScale);
            if (placement != null) {
                sb.append(" --placement ").append(placement);
            }
        }
        return sb.toString();
    }

    /** Runs {@link CalibrationProgram} through the run command; its rank 0's result line. */
    private JsonNode runJob() throws IOException {
        List<String> a = new ArrayList<>(List.of("-np", String.valueOf(np)));
        if (threads) {
            a.add("--threads");
        }
        if (fabric != null) {
            a.addAll(List.of("--fabric", fabric, "--fabric-params", fabricParams));
            if (fabricTimeScale != null) {
                a.addAll(List.of("--fabric-time-scale", String.valueOf(fabricTimeScale)));
            }
            if (placement != null) {
                a.addAll(List.of("--placement", placement));
            }
        }
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), CalibrationProgram.class.getName()));
        a.add(String.join(",", sizes.stream().map(String::valueOf).toList()));
        a.add(String.valueOf(reps));
        a.add(String.valueOf(holdSends != null ? holdSends : HOLD_SENDS_DEFAULT)); // the program caps it at N-1
        a.add(statistic);
        a.add(String.valueOf(jitWarmup != null ? jitWarmup : fabric != null ? 0 : DEFAULT_JIT_WARMUP));
        if (pairs) {
            a.add(String.valueOf(pairSizes.get(0)));
            a.add(String.valueOf(pairSizes.get(1)));
        }
        StringWriter jobOut = new StringWriter();
        StringWriter jobErr = new StringWriter();
        CommandLine cl = MpirunJ.commandLine();
        cl.setOut(new PrintWriter(jobOut, true));
        cl.setErr(new PrintWriter(jobErr, true));
        int code = cl.execute(a.toArray(String[]::new));
        if (code != 0) {
            throw new IOException("the calibration job failed (status " + code + "): " + jobErr.toString().trim());
        }
        for (String line : jobOut.toString().split("\\R")) {
            int at = line.indexOf(CalibrationProgram.PREFIX);
            if (at >= 0) {
                return new ObjectMapper().readTree(line.substring(at + CalibrationProgram.PREFIX.length()));
            }
        }
        throw new IOException("the calibration job printed no result: " + jobOut.toString().trim());
    }

    /** The values as a JSON array; a value not measured (NaN: t_hold at -np 2) is null. */
    static ArrayNode array(ObjectMapper m, double[] v) {
        ArrayNode a = m.createArrayNode();
        for (double d : v) {
            if (Double.isNaN(d)) {
                a.addNull();
            } else {
                a.add(d);
            }
        }
        return a;
    }

    /** The fit as {@code {"a","b","r2"}}, or JSON null for a fit of values not measured. */
    static JsonNode fit(ObjectMapper m, LinearFit f) {
        if (Double.isNaN(f.intercept())) {
            return m.nullNode();
        }
        ObjectNode n = m.createObjectNode();
        n.put("a", f.intercept());
        n.put("b", f.slope());
        n.put("r2", f.r2());
        return n;
    }
}
