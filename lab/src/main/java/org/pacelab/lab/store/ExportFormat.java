package org.pacelab.lab.store;

import java.util.Locale;

/** File formats the store exports its tables to. */
public enum ExportFormat {
    CSV("csv", "(FORMAT csv, HEADER)"),
    PARQUET("parquet", "(FORMAT parquet)");

    final String extension;
    final String copyOptions;

    ExportFormat(String extension, String copyOptions) {
        this.extension = extension;
        this.copyOptions = copyOptions;
    }

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
