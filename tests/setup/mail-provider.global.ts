import type { TestProject } from 'vitest/node';
import { fakeMailProvider } from '../mocks/mail-provider';

/**
 * One mail provider fake for the whole run, reachable from Node and from workerd tests: its URL
 * (`…/emails`) is provided as `mailProviderUrl`; GET `…/received` answers what it has received.
 */
export default async function setup(project: TestProject) {
  const fake = fakeMailProvider();
  project.provide('mailProviderUrl', await fake.start());
  return () => fake.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    mailProviderUrl: string;
  }
}
