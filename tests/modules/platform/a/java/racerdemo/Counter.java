package java.racerdemo;

/**
 * A module of the platform's own code (a `java.*` package, as in a framework jar analysed
 * as a module): a call into it is looked for upstream like any other.
 */
public class Counter {
  public static int count;

  public static void bump() {
    count++;
  }
}
