package io.mpirunj.launcher;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For a test class that kills a rank ({@code @ExtendWith(SurvivorsEndByThemselves.class)}): a survivor prints what
 * it caught, rethrows and exits by itself (RankMain, 3 s after a RankFailedException). The launcher would stop it
 * (SIGTERM) after the stop grace, and on a busy machine that could come before the survivor has printed; with a
 * grace longer than any test's @Timeout the job ends when its last survivor has ended by itself, whatever the load.
 */
final class SurvivorsEndByThemselves implements BeforeAllCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        System.setProperty(ProcessJob.STOP_GRACE_MS_PROP, Long.toString(TimeUnit.HOURS.toMillis(1)));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty(ProcessJob.STOP_GRACE_MS_PROP);
    }
}
