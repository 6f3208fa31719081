package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.Picture;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A picture or chart a reproduction attaches; the report writes it as
 * {@code <reproduction id>-<name>.png} and {@code .svg} beside the index.
 *
 * @param name    file-name stem, letters, digits, '-' and '_' only
 * @param caption one line under the picture
 */
public record Figure(String name, String caption, Picture picture) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

    public Figure {
        Objects.requireNonNull(caption, "caption");
        Objects.requireNonNull(picture, "picture");
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("figure name='" + name + "' (expected: letters, digits, '-', '_')");
        }
    }
}
