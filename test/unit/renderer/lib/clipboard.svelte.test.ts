import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeClipboard } from '../../../../renderer/src/lib/clipboard.ts';

// The system clipboard exists only in a browser: here it is replaced by one that takes or refuses.
function clipboardThat(write: (text: string) => Promise<void>): string[] {
  const taken: string[] = [];
  vi.stubGlobal('navigator', {
    clipboard: {
      writeText: async (text: string) => {
        await write(text);
        taken.push(text);
      },
    },
  });
  return taken;
}

afterEach(() => vi.unstubAllGlobals());

describe('writeClipboard', () => {
  it('puts the text on the clipboard and answers no problem', async () => {
    const taken = clipboardThat(async () => {});
    expect(await writeClipboard('holder\n0x01')).toBeNull();
    expect(taken).toEqual(['holder\n0x01']);
  });

  it('says that nothing was copied, and the browser’s reason, when the clipboard refuses', async () => {
    const taken = clipboardThat(async () => {
      throw new DOMException('Document is not focused.', 'NotAllowedError');
    });
    const problem = await writeClipboard('holder\n0x01');
    expect(problem).toMatch(/^Nothing was copied: the system clipboard refused the text: Document is not focused\. Click the window/);
    expect(problem).toContain('copy again');
    expect(taken).toEqual([]);
  });

  it('still says so when the refusal carries no reason', async () => {
    clipboardThat(() => Promise.reject(new Error('')));
    expect(await writeClipboard('x')).toBe('Nothing was copied: the system clipboard refused the text. Click the window and copy again.');
  });
});
