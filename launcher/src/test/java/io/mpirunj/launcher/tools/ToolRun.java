package io.mpirunj.launcher.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/** One run of a tool command in this JVM, stdout and stderr captured (picocli's testing style). */
record ToolRun(int exitCode, String out, String err) {

    static ToolRun schedule(String... args) {
        return of(new ScheduleCommand(), args);
    }

    /** {@code schedule} with the arguments in {@code line}: checks that it succeeded and parses its JSON output. */
    static Map<String, Object> scheduleJson(String line) {
        ToolRun run = schedule(args(line));
        assertEquals(0, run.exitCode(), run::toString);
        return MiniJson.object(run.out());
    }

    static ToolRun simulate(String... args) {
        return of(new SimulateCommand(), args);
    }

    static ToolRun papers(String... args) {
        return of(new PapersCommand(), args);
    }

    static ToolRun of(Object command, String... args) {
        return of(Tools.commandLine(command), args);
    }

    static ToolRun of(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new ToolRun(code, out.toString(), err.toString());
    }

    /** Arguments from one string split at spaces (none of the tests' arguments contain one). */
    static String[] args(String line) {
        return line.trim().split(" +");
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
