package io.mpirunj.benchmarks.render;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.LogPModel;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * A timing diagram: one row per rank on a model-time axis. Each message is drawn as the
 * sender's busy bar (send: t_hold from the send's start, or LogP's o), the network interval (a
 * line from the end of the send bar to the start of the receive bar) and the receiver's busy
 * bar (receive: t_hold before the delivery, or LogP's o). The completion time is a red dashed
 * line; a black tick marks when each rank holds all its data.
 */
final class TimingPainter {

    static final Color SEND = new Color(0x1F77B4);
    static final Color NETWORK = new Color(0xFF7F0E);
    static final Color RECEIVE = new Color(0x2CA02C);
    static final Color DROPPED = new Color(0xBBBBBB);

    private static final double MARGIN = 30;
    private static final double GUTTER = 64;
    private static final double PLOT_WIDTH = 960;

    private final Simulation sim;
    private final CostModel model;
    private final double rowHeight;
    private final double timeMax;
    private final double scale;
    private final List<Draw.LegendItem> legend;
    private final double plotTop;
    private final int width;
    private final int height;

    TimingPainter(Simulation sim, CostModel model) {
        this.sim = sim;
        this.model = model;
        int ranks = sim.schedule().ranks();
        this.rowHeight = ranks > 32 ? 22 : 30;
        double max = sim.completion();
        for (Message m : sim.messages()) {
            max = Math.max(max, m.end());
        }
        this.timeMax = max > 0 ? max : 1;
        this.scale = PLOT_WIDTH / timeMax;
        double titleWidth = Math.max(Draw.metrics(Draw.TITLE).stringWidth(title()),
                Draw.metrics(Draw.SUBTITLE).stringWidth(subtitle()));
        this.width = (int) Math.ceil(Math.max(MARGIN + GUTTER + PLOT_WIDTH + 60, titleWidth + 2 * MARGIN));
        this.legend = legendItems();
        this.plotTop = 78 + Draw.legendHeight(legend, width - 2 * MARGIN)
                + (sim.evaluation() == Evaluation.ROUNDS ? 38 : 24);
        this.height = (int) Math.ceil(plotTop + ranks * rowHeight + 48);
    }

    Picture picture() {
        return Picture.of(title() + " — timing", width, height, this::paint);
    }

    private String title() {
        Schedule s = sim.schedule();
        return s.algorithm() + " " + s.collective().label() + " — k=" + s.ranks() + ", root " + s.root();
    }

    private String subtitle() {
        return "model " + sim.model() + " · " + sim.evaluation().name().toLowerCase(Locale.ROOT)
                + " evaluation · completion " + Draw.time(sim.completion()) + " (model time units)";
    }

    private boolean logP() {
        return model instanceof LogPModel;
    }

    private double sendBusy(Message m) {
        if (model == null) {
            return 0;
        }
        return logP() ? ((LogPModel) model).overhead() : model.tHold(m.src(), m.dst(), m.bytes());
    }

    private double receiveBusy(Message m) {
        if (model == null) {
            return 0;
        }
        return logP() ? ((LogPModel) model).overhead() : model.tHold(m.src(), m.dst(), m.bytes());
    }

    private List<Draw.LegendItem> legendItems() {
        String busy = model == null ? "" : logP() ? " (o)" : " (t_hold)";
        List<Draw.LegendItem> items = new ArrayList<>();
        items.add(new Draw.LegendItem("send: sender busy" + busy, Draw.filled(SEND)));
        items.add(new Draw.LegendItem("in flight: network", Draw.stroked(NETWORK, Draw.stroke(1.8f))));
        items.add(new Draw.LegendItem("receive: receiver busy" + busy + ", ends at delivery", Draw.filled(RECEIVE)));
        items.add(new Draw.LegendItem("rank holds all data", (g, x, y, w, h) -> {
            g.setColor(Draw.INK);
            g.setStroke(Draw.stroke(2f));
            Draw.line(g, x + w / 2, y, x + w / 2, y + h);
        }));
        items.add(new Draw.LegendItem("completion", Draw.stroked(Draw.ALERT, Draw.dashed(2f))));
        boolean dropped = sim.messages().stream().anyMatch(Message::dropped);
        if (dropped) {
            items.add(new Draw.LegendItem("dropped copy", Draw.filled(DROPPED)));
        }
        return items;
    }

    private double tx(double t) {
        return MARGIN + GUTTER + t * scale;
    }

    private double rowTop(int rank) {
        return plotTop + rank * rowHeight;
    }

    private void paint(Graphics2D g) {
        int ranks = sim.schedule().ranks();
        Draw.text(g, Draw.TITLE, Draw.INK, title(), MARGIN, 28);
        Draw.text(g, Draw.SUBTITLE, Draw.MUTED, subtitle(), MARGIN, 48);
        Draw.legend(g, MARGIN, 60, width - 2 * MARGIN, legend);
        double bottom = plotTop + ranks * rowHeight;

        for (int r = 0; r < ranks; r++) {
            if (r % 2 == 1) {
                g.setColor(new Color(0xF4, 0xF6, 0xF8));
                g.fill(new Rectangle2D.Double(tx(0), rowTop(r), PLOT_WIDTH, rowHeight));
            }
            String label = "rank " + r + (r == sim.schedule().root() ? " *" : "");
            Draw.text(g, Draw.LABEL, Draw.INK, label, MARGIN, rowTop(r) + rowHeight / 2 + 4);
        }
        double step = Draw.tickStep(timeMax, 12);
        g.setStroke(Draw.stroke(1f));
        for (double t = 0; t <= timeMax + 1e-9; t += step) {
            g.setColor(Draw.GRID);
            Draw.line(g, tx(t), plotTop, tx(t), bottom);
            g.setColor(Draw.INK);
            Draw.line(g, tx(t), bottom, tx(t), bottom + 5);
            Draw.centred(g, Draw.SMALL, Draw.INK, Draw.time(t), tx(t), bottom + 14);
        }
        g.setColor(Draw.INK);
        Draw.line(g, tx(0), bottom, tx(timeMax), bottom);
        Draw.centred(g, Draw.LABEL, Draw.MUTED, "model time", tx(timeMax / 2), bottom + 32);
        if (sim.evaluation() == Evaluation.ROUNDS) {
            TreeSet<Double> boundaries = new TreeSet<>();
            for (Message m : sim.messages()) {
                boundaries.add(m.end());
            }
            int round = 1;
            double previous = 0;
            for (double t : boundaries) {
                g.setColor(Draw.MUTED);
                g.setStroke(Draw.dashed(1f));
                Draw.line(g, tx(t), plotTop, tx(t), bottom);
                Draw.centred(g, Draw.SMALL, Draw.MUTED, "round " + round++, tx((previous + t) / 2), plotTop - 7);
                previous = t;
            }
        }

        double barHeight = (rowHeight - 8) / 2;
        for (Message m : sim.messages()) {
            double send = Math.min(sendBusy(m), m.end() - m.start());
            double receive = Math.min(receiveBusy(m), m.end() - m.start());
            double sendEnd = m.start() + send;
            double receiveStart = Math.max(m.end() - receive, m.start());
            double sy = rowTop(m.src()) + 3;
            double ry = rowTop(m.dst()) + 5 + barHeight;
            Rectangle2D sendBar = new Rectangle2D.Double(tx(m.start()), sy, Math.max(2, send * scale), barHeight);
            Rectangle2D recvBar = new Rectangle2D.Double(tx(receiveStart), ry, Math.max(2, receive * scale), barHeight);
            g.setColor(SEND);
            g.fill(sendBar);
            g.setColor(m.dropped() ? DROPPED : RECEIVE);
            g.fill(recvBar);
            // White rims keep back-to-back bars (consecutive sends t_hold apart) apart.
            g.setColor(Color.WHITE);
            g.setStroke(Draw.stroke(0.8f));
            g.draw(sendBar);
            g.draw(recvBar);
            g.setColor(m.dropped() ? DROPPED : NETWORK);
            g.setStroke(Draw.stroke(1.6f));
            double x1 = tx(sendEnd);
            double y1 = sy + barHeight / 2;
            double x2 = tx(Math.max(receiveStart, sendEnd));
            double y2 = ry + barHeight / 2;
            Draw.arrow(g, x1, y1, x2, y2, 7);
            labelIn(g, sendBar, "→" + m.dst());
            labelIn(g, recvBar, "←" + m.src());
        }
        for (int r = 0; r < ranks; r++) {
            double done = sim.rankCompletion(r);
            if (done > 0) {
                g.setColor(Draw.INK);
                g.setStroke(Draw.stroke(2.2f));
                Draw.line(g, tx(done), rowTop(r) + 2, tx(done), rowTop(r) + rowHeight - 2);
            }
        }
        double completion = sim.completion();
        g.setColor(Draw.ALERT);
        g.setStroke(Draw.dashed(2f));
        double labelY = plotTop - (sim.evaluation() == Evaluation.ROUNDS ? 20 : 7);
        Draw.line(g, tx(completion), labelY - 10, tx(completion), bottom);
        String text = "completion " + Draw.time(completion);
        double w = Draw.width(g, Draw.LABEL, text);
        double lx = Math.min(tx(completion) + 4, width - MARGIN / 2 - w);
        Draw.text(g, Draw.LABEL, Draw.ALERT, text, lx, labelY);
    }

    private static void labelIn(Graphics2D g, Rectangle2D bar, String text) {
        int w = Draw.width(g, Draw.SMALL, text);
        if (bar.getWidth() >= w + 4 && bar.getHeight() >= 9) {
            Draw.centred(g, Draw.SMALL, Color.WHITE, text, bar.getCenterX(), bar.getCenterY());
        }
    }
}
