package org.pacelab.lab.interop;

import java.util.List;

/**
 * The files a test case serves: {@code count} random files of {@code size} bytes whose names are {@code nameLength}
 * random lower-case letters (the runner's zerortt case uses 250-letter names so that the requests alone are large).
 */
public record CaseFiles(List<Long> sizes, int nameLength) {
    public CaseFiles {
        sizes = List.copyOf(sizes);
    }

    public static CaseFiles of(long... sizes) {
        return new CaseFiles(java.util.Arrays.stream(sizes).boxed().toList(), 12);
    }

    public static CaseFiles many(int count, long size, int nameLength) {
        return new CaseFiles(java.util.Collections.nCopies(count, size), nameLength);
    }

    public long totalBytes() {
        return sizes.stream().mapToLong(Long::longValue).sum();
    }
}
