import { z } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when it may, and probes for that permission on
 * first use. Our Content-Security-Policy forbids eval, so the probe would be reported as a violation
 * on every dashboard load; jitless mode skips the probe and the compiler (parsing stays the same).
 */
z.config({ jitless: true });
