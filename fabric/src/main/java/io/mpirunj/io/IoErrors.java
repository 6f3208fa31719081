package io.mpirunj.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in words a user reads: "out/x.png: no such file or directory" rather
 * than {@code java.nio.file.NoSuchFileException: out/x.png} (whose message is only the path).
 */
public final class IoErrors {
    private IoErrors() {
    }

    /** One line: the file the system named (if any) and the reason. */
    public static String reason(IOException e) {
        return reason(e, null);
    }

    /**
     * Like {@link #reason(IOException)}, for a message that names {@code file} already: the reason
     * leaves it out when the system names that same file.
     */
    public static String reason(IOException e, Object file) {
        String text;
        if (e instanceof FileSystemException) {
            FileSystemException f = (FileSystemException) e;
            String why = f.getReason() != null ? f.getReason() : reasonOf(f);
            boolean named = f.getOtherFile() == null && file != null && String.valueOf(file).equals(f.getFile());
            String where = f.getFile() == null || named ? "" : f.getFile()
                    + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": ";
            text = where + why;
        } else if (e.getMessage() != null && !e.getMessage().isBlank()) {
            text = e.getMessage();
        } else {
            text = e.getClass().getSimpleName();
        }
        return text.split("\\R", 2)[0];
    }

    private static String reasonOf(FileSystemException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            return "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        } else if (e instanceof NotDirectoryException) {
            return "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        return "failed (" + e.getClass().getSimpleName() + ")";
    }
}
