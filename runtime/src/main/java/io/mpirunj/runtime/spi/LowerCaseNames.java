package io.mpirunj.runtime.spi;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Enum constants named in lower case, as on the command line and in exports ({@code reduce_scatter}). */
public final class LowerCaseNames {
    private LowerCaseNames() {
    }

    /** The lower-case name of {@code constant}. */
    public static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** The constant of {@code values} whose lower-case name is {@code name}; the error names {@code what} and lists the valid names. */
    public static <E extends Enum<E>> E parse(E[] values, String name, String what) {
        for (E e : values) {
            if (of(e).equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + name + "' (expected one of: "
                + Arrays.stream(values).map(LowerCaseNames::of).collect(Collectors.joining(", ")) + ")");
    }
}
