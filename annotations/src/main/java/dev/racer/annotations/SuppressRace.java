package dev.racer.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Silences racer reports on the annotated code, after review.
 *
 * <ul>
 *   <li>On a method or constructor: reports whose racy access is in that method.</li>
 *   <li>On a class: reports in the class and in its nested classes.</li>
 *   <li>On a field: every report whose racy access is to that field, wherever the access is.</li>
 * </ul>
 *
 * <p>Suppressed reports never fail a build; they are still counted in the summary and appear in
 * SARIF as suppressed in source. racer reads class files, so the annotation is retained there
 * ({@link RetentionPolicy#CLASS}) and costs nothing at run time. racer matches it by simple name:
 * a project that prefers no dependency can declare its own {@code SuppressRace} with the same
 * elements in any package.
 *
 * <pre>{@code
 * @SuppressRace(value = "THREAD_SAFETY_VIOLATION", reason = "written once before the executor starts")
 * private Config config;
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
public @interface SuppressRace {

    /**
     * What to suppress: an issue kind ({@code THREAD_SAFETY_VIOLATION},
     * {@code INTERFACE_NOT_THREAD_SAFE}, {@code GUARDEDBY_VIOLATION}), or {@code "racer"} or
     * {@code "all"} for every kind.
     */
    String value() default "all";

    /** Why the report is safe to ignore, shown next to the suppressed issue in reports. */
    String reason() default "";
}
