package it.safe;

/** Immutable. */
public final class Point {
    private final int x;
    private final int y;

    public Point(int x, int y) {
        this.x = x;
        this.y = y;
    }

    public Point plus(Point other) {
        return new Point(x + other.x, y + other.y);
    }
}
