package io.mpirunj.launcher.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.io.IoErrors;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j trace FILE}: reads a message trace ({@code mpirun-j --trace FILE}, one file or the
 * per-rank {@code FILE.rN}), pairs every send with its delivery, prints a summary and, with
 * {@code --png}, draws the run as a timing diagram (time across, ranks down, one line per message from
 * its send to its delivery). With {@code --model SPEC} the model's prediction for the same messages (each
 * sent when it really was, delivered t_end later) is drawn beside them, dashed, and summed up.
 */
@Command(name = "trace",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Summarises a message trace (mpirun-j --trace FILE) and draws it as a timing",
            "diagram (--png). With --model the model's t_end for each message is overlaid,",
            "so reality and model can be compared.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mpirun-j -np 8 --threads --trace run.trace --coll bcast=opt-tree \\",
            "      io.mpirunj.examples.CollectivesDemo",
            "  mpirun-j trace run.trace --png run.png --model hold=20+0.02m,end=55+0.07m",
        })
public final class TraceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The trace (or the stem of FILE.r0, FILE.r1, ...).")
    Path file;

    @Option(names = "--png", paramLabel = "OUT", description = "Draw the timing diagram into this PNG (its directory "
            + "must exist).")
    Path png;

    @Option(names = "--model", paramLabel = "SPEC", description = "Overlay this cost model's prediction (a model spec or "
            + "model.json; see mpirun-j simulate --help).")
    String model;

    @Option(names = "--model-unit-us", paramLabel = "US", description = "Microseconds per unit of --model (default 1; "
            + "on an emulated fabric with a flit model, its --fabric-time-scale).")
    double modelUnitMicros = 1;

    @Option(names = "--max-messages", paramLabel = "N", description = "Draw at most the first N messages (default 500).")
    int maxMessages = 500;

    /** One message: sent at send ns, delivered at deliver ns (NaN if never). */
    record Message(int src, int dst, long seq, int tag, long bytes, double send, double deliver) {
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Message> messages;
        CostModel cost = null;
        try {
            if (png != null) {
                Tools.checkDirectoryOf("--png", png);
            }
            messages = read(file);
            if (model != null) {
                try {
                    cost = ModelSpec.parse(model);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--model: " + e.getMessage());
                }
            }
        } catch (IllegalArgumentException | BadInput e) {
            err.println("mpirun-j trace: " + e.getMessage());
            err.flush();
            return 2;
        }
        if (messages.isEmpty()) {
            err.println("mpirun-j trace: " + file + " holds no messages");
            err.flush();
            return 2;
        }
        double origin = messages.stream().mapToDouble(Message::send).min().orElse(0);
        double end = messages.stream().mapToDouble(m -> Double.isNaN(m.deliver) ? m.send : m.deliver).max().orElse(0);
        long lost = messages.stream().filter(m -> Double.isNaN(m.deliver)).count();
        double meanLatency = messages.stream().filter(m -> !Double.isNaN(m.deliver))
                .mapToDouble(m -> m.deliver - m.send).average().orElse(Double.NaN);
        // no delivery in the files given (e.g. one rank's file of a process job: deliveries are in the receivers')
        String mean = Double.isNaN(meanLatency) ? "none delivered in these files"
                : String.format(Locale.ROOT, "%.1f us", meanLatency / 1e3);
        out.printf(Locale.ROOT, "%d messages (%d never delivered), %d bytes, span %.1f us, mean send->delivery %s%n",
                messages.size(), lost, messages.stream().mapToLong(Message::bytes).sum(), (end - origin) / 1e3, mean);
        if (cost != null) {
            double predictedEnd = 0;
            double sum = 0;
            for (Message m : messages) {
                double t = predicted(cost, m);
                sum += t;
                predictedEnd = Math.max(predictedEnd, m.send + t);
            }
            out.printf(Locale.ROOT, "model %s: mean t_end %.1f us; last delivery %.1f us after the first send "
                    + "(measured %.1f us)%n", cost, sum / messages.size() / 1e3, (predictedEnd - origin) / 1e3,
                    (end - origin) / 1e3);
        }
        if (png != null) {
            try {
                draw(messages, origin, cost);
            } catch (IOException e) {
                out.flush();
                err.println("mpirun-j trace: cannot write " + png + ": " + IoErrors.reason(e, png));
                err.flush();
                return Tools.FAILED;
            }
            out.println("wrote " + png);
        }
        out.flush();
        return 0;
    }

    private double predicted(CostModel cost, Message m) {
        return cost.tEnd(m.src, m.dst, m.bytes) * modelUnitMicros * 1e3;
    }

    /** Reads FILE, else FILE.r0, FILE.r1, ...; one-line {@link IllegalArgumentException} on bad input. */
    static List<Message> read(Path file) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.exists(file)) {
            files.add(file);
        } else {
            for (int r = 0; Files.exists(Path.of(file + ".r" + r)); r++) {
                files.add(Path.of(file + ".r" + r));
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(file + ": no such trace (nor " + file + ".r0)");
        }
        ObjectMapper json = new ObjectMapper();
        Map<String, JsonNode> sends = new HashMap<>();
        Map<String, Double> delivered = new HashMap<>();
        for (Path f : files) {
            int lineNo = 0;
            for (String line : Files.readAllLines(f)) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n;
                try {
                    n = json.readTree(line);
                } catch (IOException e) {
                    throw new IllegalArgumentException(f + " line " + lineNo + ": not a trace record (JSON as "
                            + "mpirun-j --trace writes)");
                }
                String key = n.path("src").asInt() + ":" + n.path("dst").asInt() + ":" + n.path("seq").asLong();
                switch (n.path("event").asText()) {
                    case "send" -> sends.put(key, n);
                    case "deliver" -> delivered.put(key, n.path("ns").asDouble());
                    default -> throw new IllegalArgumentException(f + " line " + lineNo + ": unknown event '"
                            + n.path("event").asText() + "' (expected: send or deliver)");
                }
            }
        }
        List<Message> messages = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : sends.entrySet()) {
            JsonNode n = e.getValue();
            messages.add(new Message(n.get("src").asInt(), n.get("dst").asInt(), n.get("seq").asLong(),
                    n.get("tag").asInt(), n.get("bytes").asLong(), n.get("ns").asDouble(),
                    delivered.getOrDefault(e.getKey(), Double.NaN)));
        }
        messages.sort(Comparator.comparingDouble(Message::send));
        return messages;
    }

    private void draw(List<Message> messages, double origin, CostModel cost) throws IOException {
        int ranks = messages.stream().mapToInt(m -> Math.max(m.src, m.dst)).max().orElse(0) + 1;
        XYChart chart = new XYChartBuilder().width(1200).height(Math.max(400, 60 * ranks + 150))
                .title("Messages of " + file.getFileName() + (cost != null ? " (dashed: model " + cost + ")" : ""))
                .xAxisTitle("time since the first send (us)").yAxisTitle("rank").build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setYAxisDecimalPattern("0");
        int drawn = 0;
        for (Message m : messages) {
            if (drawn++ >= maxMessages) {
                break;
            }
            double x0 = (m.send - origin) / 1e3;
            if (!Double.isNaN(m.deliver)) {
                XYSeries s = chart.addSeries("m" + drawn, new double[] {x0, (m.deliver - origin) / 1e3},
                        new double[] {m.src, m.dst});
                s.setMarker(SeriesMarkers.CIRCLE);
                s.setLineColor(new Color(31, 119, 180));
                s.setLineStyle(new BasicStroke(1.5f));
                s.setMarkerColor(new Color(31, 119, 180));
            }
            if (cost != null) {
                XYSeries p = chart.addSeries("p" + drawn, new double[] {x0, x0 + predicted(cost, m) / 1e3},
                        new double[] {m.src, m.dst});
                p.setMarker(SeriesMarkers.NONE);
                p.setLineColor(new Color(214, 39, 40));
                p.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                        new float[] {6, 4}, 0));
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
