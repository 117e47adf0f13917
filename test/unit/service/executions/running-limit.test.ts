import { describe, expect, it } from 'vitest';
import { hasNewcomerSlot, runningLimit, threadPoolSize } from '../../../../main/service/executions/running-limit.ts';

describe('executions run at once', () => {
  it("reads libuv's pool size as the environment sets it, libuv's 4 when it does not", () => {
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '16' })).toBe(16);
    expect(threadPoolSize({})).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: 'many' })).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '5000' })).toBe(1024);
  });

  it('keep two threads of the pool for requests, whatever is asked, and run at least one', () => {
    expect(runningLimit(8, 16)).toBe(8);
    expect(runningLimit(8, 4)).toBe(2);
    expect(runningLimit(undefined, 4)).toBe(2);
    expect(runningLimit(undefined, 16)).toBeGreaterThanOrEqual(2);
    expect(runningLimit(undefined, 16)).toBeLessThanOrEqual(4);
    expect(runningLimit(3, 1)).toBe(1);
  });

  it("run one more for a newcomer only while the pool still keeps the requests' threads", () => {
    expect(hasNewcomerSlot(4, 16)).toBe(true);
    expect(hasNewcomerSlot(13, 16)).toBe(true);
    expect(hasNewcomerSlot(14, 16)).toBe(false);
    expect(hasNewcomerSlot(runningLimit(undefined, 4), 4)).toBe(false);
  });
});
