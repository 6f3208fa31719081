package io.mpirunj.benchmarks.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CsvTableTest {
    @Test
    void headerRowsAndEmptyCells() {
        CsvTable t = new CsvTable("a", "b", "c").row(1, "x", null).row(CsvTable.decimal(2.5, 3), CsvTable.decimal(
                Double.NaN, 1), 7L);
        assertEquals("a,b,c\n1,x,\n2.500,,7\n", t.text());
    }

    @Test
    void cellsThatNeedQuotingAreQuoted() {
        assertEquals("name\n\"a,b\"\n\"say \"\"hi\"\"\"\n", new CsvTable("name").row("a,b").row("say \"hi\"").text());
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CsvTable("a", "b").row(1));
    }
}
