import { beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({ opened: [] as string[] }));

vi.mock('electron', () => ({
  shell: {
    openExternal: (url: string) => {
      fake.opened.push(url);
      return Promise.resolve();
    },
  },
}));

const { denyPermissions, guardWebContents } = await import('../../../main/electron/navigation.ts');
const { openExternalSafely } = await import('../../../main/electron/external.ts');

type Listener = (event: { url?: string; preventDefault(): void }) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    on(name: string, listener: Listener) {
      listeners.set(name, listener);
      return contents;
    },
    setWindowOpenHandler(handler: typeof openHandler) {
      openHandler = handler;
    },
  };
  guardWebContents(contents as never);
  return {
    /** Fires `name` and says whether the listener prevented it. */
    fire(name: string, url?: string): boolean {
      let prevented = false;
      listeners.get(name)!({ url, preventDefault: () => (prevented = true) });
      return prevented;
    },
    open(url: string) {
      return openHandler!({ url });
    },
  };
}

beforeEach(() => {
  fake.opened.length = 0;
});

describe('navigation', () => {
  it('allows navigation and redirects within the app origin only', () => {
    const contents = fakeContents();
    for (const name of ['will-navigate', 'will-redirect']) {
      expect(contents.fire(name, 'app://querydesk/index.html#/queries'), name).toBe(false);
      for (const url of [
        'https://example.com/',
        'http://127.0.0.1:8080/',
        'file:///etc/passwd',
        'app://elsewhere/index.html',
        'app://user@querydesk/index.html',
        'javascript:alert(1)',
        'not a url',
      ]) {
        expect(contents.fire(name, url), `${name} ${url}`).toBe(true);
      }
    }
  });

  it('refuses every webview', () => {
    expect(fakeContents().fire('will-attach-webview')).toBe(true);
  });

  it('denies every new window, handing only https links to the browser', () => {
    const contents = fakeContents();
    expect(contents.open('https://docs.example.com/a?b=c')).toEqual({ action: 'deny' });
    expect(contents.open('http://example.com/')).toEqual({ action: 'deny' });
    expect(contents.open('app://querydesk/index.html')).toEqual({ action: 'deny' });
    expect(fake.opened).toEqual(['https://docs.example.com/a?b=c']);
  });
});

describe('openExternalSafely', () => {
  it('opens https links', () => {
    expect(openExternalSafely('https://example.com/path')).toBe(true);
    expect(fake.opened).toEqual(['https://example.com/path']);
  });

  it('refuses everything else', () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      'mailto:a@example.com',
      'app://querydesk/index.html',
      'https://user:secret@example.com/',
      '//example.com',
      '',
    ]) {
      expect(openExternalSafely(url), url).toBe(false);
    }
    expect(fake.opened).toEqual([]);
  });
});

describe('denyPermissions', () => {
  it('refuses every permission request and check', () => {
    let requestHandler: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let checkHandler: (() => boolean) | undefined;
    denyPermissions({
      setPermissionRequestHandler: (h: typeof requestHandler) => (requestHandler = h),
      setPermissionCheckHandler: (h: typeof checkHandler) => (checkHandler = h),
    } as never);
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal']) {
      requestHandler!({}, permission, (granted) => answers.push(granted));
    }
    expect(answers).toEqual([false, false, false, false]);
    expect(checkHandler!()).toBe(false);
  });
});
