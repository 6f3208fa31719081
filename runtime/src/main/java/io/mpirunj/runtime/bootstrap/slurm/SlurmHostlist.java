package io.mpirunj.runtime.bootstrap.slurm;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's compressed host and count lists, as they appear in {@code SLURM_STEP_NODELIST},
 * {@code SLURM_JOB_NODELIST}, {@code SLURM_STEP_TASKS_PER_NODE} and {@code SLURM_STEP_RESV_PORTS}.
 * We parse them ourselves rather than call {@code scontrol show hostnames}, so a rank needs no Slurm
 * binary on its PATH.
 */
public final class SlurmHostlist {
    private SlurmHostlist() {
    }

    /**
     * Expands a host list: {@code node[01-03,07],gpu5,r[1-2]-ib} → node01, node02, node03, node07,
     * gpu5, r1-ib, r2-ib. Zero padding of a range's first bound is kept; several bracket groups in one
     * name expand as a product, in order.
     *
     * @throws IllegalArgumentException naming the list when it is malformed
     */
    public static List<String> expand(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("empty host list (expected: e.g. node[01-04],login1)");
        }
        List<String> hosts = new ArrayList<>();
        for (String name : splitTopLevel(list.trim(), list)) {
            expandName(name, list, hosts);
        }
        return hosts;
    }

    /**
     * Expands a count list: {@code 2(x3),1} → 2, 2, 2, 1 (tasks per node).
     *
     * @throws IllegalArgumentException naming the list when it is malformed
     */
    public static List<Integer> expandCounts(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("empty count list (expected: e.g. 4(x2),3)");
        }
        List<Integer> counts = new ArrayList<>();
        for (String part : list.trim().split(",")) {
            String p = part.trim();
            int repeat = 1;
            int open = p.indexOf('(');
            try {
                if (open >= 0) {
                    if (!p.endsWith(")") || p.charAt(open + 1) != 'x') {
                        throw new NumberFormatException();
                    }
                    repeat = Integer.parseInt(p.substring(open + 2, p.length() - 1));
                    p = p.substring(0, open);
                }
                int n = Integer.parseInt(p);
                if (n < 0 || repeat < 1) {
                    throw new NumberFormatException();
                }
                for (int i = 0; i < repeat; i++) {
                    counts.add(n);
                }
            } catch (NumberFormatException | IndexOutOfBoundsException e) {
                throw new IllegalArgumentException("malformed count list '" + list + "' at '" + part
                        + "' (expected: N or N(xR), comma-separated)");
            }
        }
        return counts;
    }

    /**
     * Expands a port list: {@code 20000-20003,20010} → 20000, 20001, 20002, 20003, 20010.
     *
     * @throws IllegalArgumentException naming the list when it is malformed
     */
    public static List<Integer> expandPorts(String list) {
        List<Integer> ports = new ArrayList<>();
        if (list == null || list.isBlank()) {
            return ports;
        }
        for (String part : list.trim().split(",")) {
            long[] range = range(part.trim(), list);
            for (long p = range[0]; p <= range[1]; p++) {
                if (p < 1 || p > 65535) {
                    throw new IllegalArgumentException("port " + p + " in '" + list + "' (expected: 1..65535)");
                }
                ports.add((int) p);
            }
        }
        return ports;
    }

    private static List<String> splitTopLevel(String s, String whole) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
                if (depth > 1) {
                    throw malformed(whole, "nested '['");
                }
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw malformed(whole, "']' without '['");
                }
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw malformed(whole, "'[' without ']'");
        }
        parts.add(s.substring(start));
        for (String p : parts) {
            if (p.isBlank()) {
                throw malformed(whole, "an empty host name");
            }
        }
        return parts;
    }

    private static void expandName(String name, String whole, List<String> out) {
        int open = name.indexOf('[');
        if (open < 0) {
            out.add(name.trim());
            return;
        }
        int close = name.indexOf(']', open);
        String prefix = name.substring(0, open);
        String suffix = name.substring(close + 1);
        for (String part : name.substring(open + 1, close).split(",")) {
            String p = part.trim();
            long[] range = range(p, whole);
            String low = p.contains("-") ? p.substring(0, p.indexOf('-')) : p;
            int width = low.startsWith("0") ? low.length() : 0;
            for (long i = range[0]; i <= range[1]; i++) {
                String number = Long.toString(i);
                while (number.length() < width) {
                    number = "0" + number;
                }
                expandName(prefix + number + suffix, whole, out); // further bracket groups in the suffix
            }
        }
    }

    private static long[] range(String p, String whole) {
        try {
            int dash = p.indexOf('-');
            long lo = Long.parseLong(dash < 0 ? p : p.substring(0, dash));
            long hi = dash < 0 ? lo : Long.parseLong(p.substring(dash + 1));
            if (lo < 0 || hi < lo || hi - lo > 1_000_000) {
                throw new NumberFormatException();
            }
            return new long[] {lo, hi};
        } catch (NumberFormatException e) {
            throw malformed(whole, "the range '" + p + "'");
        }
    }

    private static IllegalArgumentException malformed(String list, String what) {
        return new IllegalArgumentException("malformed host list '" + list + "': " + what
                + " (expected: e.g. node[01-04],login1)");
    }
}
