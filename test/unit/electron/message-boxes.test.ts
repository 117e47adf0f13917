import { describe, expect, it } from 'vitest';
import { noSuchAccountBox, updateReadyBox } from '../../../main/electron/message-boxes.ts';
import { proofreadTogether } from '../words/proofread.ts';

describe('the desktop host’s message boxes', () => {
  it('head their text with a sentence and say each thing once', () => {
    for (const box of [updateReadyBox('1.4.0'), noSuchAccountBox('Work', 42)]) {
      expect(proofreadTogether(box.message, box.detail ?? ''), box.message).toEqual([]);
    }
    expect(updateReadyBox('1.4.0').message).toContain('1.4.0');
    expect(noSuchAccountBox('Work', 42)).toMatchObject({
      message: expect.stringContaining('“Work”'),
      detail: expect.stringContaining('query 42'),
    });
  });
});
