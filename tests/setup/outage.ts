/**
 * A database outage a test can switch on and off: every query fails the way the engine's driver
 * fails when its server cannot be reached (libSQL: fetch failed / ECONNREFUSED; D1: "Network
 * connection lost."), and works again after `up()`.
 */
export type Outage = { down(): void; up(): void };
