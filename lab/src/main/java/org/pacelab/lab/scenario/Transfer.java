package org.pacelab.lab.scenario;

/**
 * What the client downloads: {@code streams} concurrent requests of {@code bytesPerStream} bytes each, over one
 * connection.
 */
public record Transfer(long bytesPerStream, int streams) {
    public long totalBytes() {
        return bytesPerStream * streams;
    }
}
