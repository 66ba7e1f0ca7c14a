package dev.racer.bridge;

/**
 * Any failure of the racer engine or of its native bridge: malformed request, unreadable input,
 * corrupt summary file, missing or mismatched native library, engine panic. The message is one
 * line and names the file and the problem. Race findings are never reported as exceptions.
 */
public class RacerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RacerException(String message) {
        super(message);
    }

    public RacerException(String message, Throwable cause) {
        super(message, cause);
    }
}
