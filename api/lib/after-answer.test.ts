import { describe, expect, it, vi } from 'vitest';
import { afterAnswerOf } from './after-answer';

const noContext = {
  get executionCtx(): never {
    throw new Error('This context has no ExecutionContext');
  },
};

describe('afterAnswerOf', () => {
  it('hands the work to waitUntil when the request has an execution context, without awaiting it', async () => {
    const handed: Promise<unknown>[] = [];
    const execution = {
      waitUntil: (work: Promise<unknown>) => void handed.push(work),
      passThroughOnException() {},
      props: {},
    };
    let release = () => {};
    const done = vi.fn();
    const work = () =>
      new Promise<void>((resolve) => {
        release = resolve;
      }).then(done);
    await afterAnswerOf({ executionCtx: execution })(work);
    expect(handed).toHaveLength(1);
    expect(done).not.toHaveBeenCalled();
    release();
    await handed[0];
    expect(done).toHaveBeenCalledOnce();
  });

  it('awaits the work when there is no execution context (tests, Node scripts)', async () => {
    const done = vi.fn();
    await afterAnswerOf(noContext)(async () => {
      await Promise.resolve();
      done();
    });
    expect(done).toHaveBeenCalledOnce();
  });

  it('logs a failure instead of throwing it, with or without a context', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(
        afterAnswerOf(noContext)(async () => {
          throw new Error('mail down');
        }),
      ).resolves.toBeUndefined();
      const handed: Promise<unknown>[] = [];
      await afterAnswerOf({
        executionCtx: {
          waitUntil: (w: Promise<unknown>) => void handed.push(w),
          passThroughOnException() {},
          props: {},
        },
      })(() => Promise.reject(new Error('mail down')));
      await handed[0];
      const lines = error.mock.calls.map(([line]) => String(line));
      expect(
        lines.filter((line) => line.includes('work after the answer failed') && line.includes('mail down')),
      ).toHaveLength(2);
    } finally {
      error.mockRestore();
    }
  });
});
