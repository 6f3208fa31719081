package io.mpirunj.benchmarks.csv;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A CSV file built row by row and written by Jackson's CSV module (quoting and escaping are its job).
 * Every CSV the benchmarks write goes through here. Cells are written as given: a caller formats its
 * numbers (each column has its own precision); {@code null} is an empty cell.
 */
public final class CsvTable {
    private static final CsvMapper MAPPER = new CsvMapper();

    private final CsvSchema schema;
    private final int columns;
    private final List<String[]> rows = new ArrayList<>();

    public CsvTable(String... header) {
        CsvSchema.Builder b = CsvSchema.builder().setUseHeader(true).setLineSeparator("\n");
        for (String column : header) {
            b.addColumn(column);
        }
        schema = b.build();
        columns = header.length;
    }

    /** Appends a row; one cell per column. */
    public CsvTable row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells for " + columns + " columns");
        }
        String[] row = new String[columns];
        for (int i = 0; i < columns; i++) {
            row[i] = cells[i] == null ? "" : String.valueOf(cells[i]);
        }
        rows.add(row);
        return this;
    }

    /** {@code value} with {@code decimals} places (a dot, whatever the locale), or null (an empty cell) for NaN. */
    public static String decimal(double value, int decimals) {
        return Double.isNaN(value) ? null : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** The whole file: the header line, then one line per row. */
    public String text() {
        try {
            return MAPPER.writer(schema).writeValueAsString(rows);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e); // strings only: cannot happen
        }
    }

    /** Writes {@link #text} to {@code file}, creating its directory. */
    public void write(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Files.writeString(file, text());
    }
}
