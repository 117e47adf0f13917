import { describe, expect, it } from 'vitest';
import { hostProcessEnv, WEB_HOST_ENTRY, webHostCommand } from '../../../build/web-host.ts';
import { HOST_MALLOC_ARENAS } from '../../../main/common/memory-budgets.ts';

describe('the browser host’s command', () => {
  it('runs the bundle with the host’s own arguments and bounds malloc’s arenas', () => {
    const command = webHostCommand(['--port', '0'], { PATH: '/bin' });
    expect(command.args).toEqual([WEB_HOST_ENTRY, '--port', '0']);
    expect(WEB_HOST_ENTRY).toMatch(/out\/main\/web-host\.js$/);
    expect(command.env).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: String(HOST_MALLOC_ARENAS) });
  });

  it('keeps an arena count the user set', () => {
    expect(webHostCommand([], { MALLOC_ARENA_MAX: '8' }).env.MALLOC_ARENA_MAX).toBe('8');
    expect(hostProcessEnv({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
  });

  it('bounds them for the service alone too', () => {
    expect(hostProcessEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: String(HOST_MALLOC_ARENAS) });
  });
});
