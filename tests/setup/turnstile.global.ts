import type { TestProject } from 'vitest/node';
import { startTurnstileFake } from '../mocks/turnstile-fake';

/**
 * One Turnstile siteverify fake for the whole run, reachable from Node and from workerd tests:
 * its URL is provided as `turnstileVerifyUrl` (read it with inject()).
 */
export default async function setup(project: TestProject) {
  const fake = await startTurnstileFake();
  project.provide('turnstileVerifyUrl', fake.url);
  return () => fake.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    turnstileVerifyUrl: string;
  }
}
