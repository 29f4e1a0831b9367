package dev.baton.kotlin

import kotlin.time.Duration
import kotlin.time.toJavaDuration

/**
 * The wait time a [Duration] asks for, as the Java API takes it: null for [Duration.INFINITE] (no limit).
 *
 * @throws IllegalArgumentException if the wait is negative
 */
internal fun Duration.toWaitTime(): java.time.Duration? {
  require(!isNegative()) {
    "The wait time must not be negative, but was $this: use Duration.ZERO to try once, or Duration.INFINITE to wait" +
        " without limit."
  }
  return if (isInfinite()) null else toJavaDuration()
}
