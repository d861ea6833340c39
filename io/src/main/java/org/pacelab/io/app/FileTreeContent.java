package org.pacelab.io.app;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.Printable;

/**
 * Serves the regular files under one directory and nothing else. A request target is percent-decoded
 * segment by segment; a segment that is {@code .} or {@code ..} or contains a separator ({@code /},
 * {@code \}, also when percent-encoded) or NUL is refused before any file system access, and the path that
 * remains is resolved with {@link Path#toRealPath} (following symbolic links) and served only if it lies
 * inside the root's real path and is a regular file. Everything refused is 404 (400 for an undecodable
 * target); the reason names the target.
 *
 * <p>A symbolic link swapped in between that check and the open (by someone who can write inside the
 * root) is not detected, except for the last path component, which is opened with NOFOLLOW_LINKS.
 */
public final class FileTreeContent implements ContentSource {
    private final Path root;

    /**
     * @throws IllegalArgumentException when {@code root} is not an existing directory
     */
    public FileTreeContent(Path root) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("server root " + root + " cannot be used: " + e);
        }
        if (!Files.isDirectory(this.root)) {
            throw new IllegalArgumentException("server root " + root + " is not a directory");
        }
    }

    /** The real path of the root directory. */
    public Path root() {
        return root;
    }

    @Override
    public Content open(String target) {
        String path = UrlPath.withoutQuery(target);
        if (!path.startsWith("/")) {
            return notFound(target, "is not an absolute path");
        }
        List<String> segments;
        try {
            segments = UrlPath.decodedSegments(path);
        } catch (UrlPath.MalformedPathException e) {
            return new Content.Refused(400, "request target " + Printable.of(target) + " is malformed: "
                    + e.getMessage());
        }
        Path candidate = root;
        for (String segment : segments) {
            String unsafe = UrlPath.unsafeNameReason(segment);
            if (unsafe != null) {
                return notFound(target, "has a segment that " + unsafe);
            }
            candidate = candidate.resolve(segment);
        }
        if (!candidate.normalize().startsWith(root)) {
            return notFound(target, "points outside the served directory");
        }
        Path real;
        try {
            real = candidate.toRealPath();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return notFound(target, "names no file");
        } catch (IOException e) {
            return notFound(target, "cannot be resolved (" + e.getClass().getSimpleName() + ")");
        }
        if (!real.startsWith(root)) {
            return notFound(target, "resolves (through a symbolic link) outside the served directory");
        }
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
            return notFound(target, "is a directory or special file, not a regular file");
        }
        try {
            FileChannel channel = FileChannel.open(real, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            try {
                return new Content.Found(new FileBody(real, channel, channel.size()));
            } catch (IOException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            return new Content.Refused(500, "request target " + Printable.of(target)
                    + " names a file that cannot be read: " + e.getMessage());
        }
    }

    private static Content.Refused notFound(String target, String why) {
        return new Content.Refused(404, "request target " + Printable.of(target) + " " + why);
    }
}
