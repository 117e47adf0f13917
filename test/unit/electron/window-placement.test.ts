import { describe, expect, it } from 'vitest';
import { displayKey, noPlacements, placementFor, rememberPlacement, type DisplayInfo } from '../../../main/electron/window-placement.ts';

const laptop: DisplayInfo = { bounds: { x: 0, y: 0, width: 1440, height: 900 }, workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const monitor: DisplayInfo = {
  bounds: { x: 1440, y: 0, width: 2560, height: 1440 },
  workArea: { x: 1440, y: 0, width: 2560, height: 1400 },
};

describe('the window placement per display', () => {
  it('opens at the default place the first time', () => {
    expect(placementFor(noPlacements(), [laptop])).toBeNull();
  });

  it('comes back where it was on the display it was last on, maximized or not', () => {
    let saved = rememberPlacement(noPlacements(), laptop, { bounds: { x: 40, y: 60, width: 1200, height: 800 }, maximized: false });
    saved = rememberPlacement(saved, monitor, { bounds: { x: 1600, y: 100, width: 1800, height: 1200 }, maximized: true });
    expect(placementFor(saved, [laptop, monitor])).toEqual({ bounds: { x: 1600, y: 100, width: 1800, height: 1200 }, maximized: true });
    // at the café, without the monitor: the laptop's own place
    expect(placementFor(saved, [laptop])).toEqual({ bounds: { x: 40, y: 60, width: 1200, height: 800 }, maximized: false });
    expect(saved.last).toBe(displayKey(monitor));
  });

  it('keeps a window that would be off screen or too large inside the work area', () => {
    const saved = rememberPlacement(noPlacements(), laptop, { bounds: { x: 1300, y: 0, width: 2000, height: 700 }, maximized: false });
    expect(placementFor(saved, [laptop])).toEqual({ bounds: { x: 0, y: 25, width: 1440, height: 700 }, maximized: false });
  });

  it('forgets nothing when the displays are all new, and opens at the default place', () => {
    const saved = rememberPlacement(noPlacements(), monitor, { bounds: { x: 1600, y: 100, width: 1800, height: 1200 }, maximized: false });
    const projector: DisplayInfo = {
      bounds: { x: 0, y: 0, width: 1920, height: 1080 },
      workArea: { x: 0, y: 0, width: 1920, height: 1040 },
    };
    expect(placementFor(saved, [projector])).toBeNull();
    expect(Object.keys(saved.byDisplay)).toEqual([displayKey(monitor)]);
  });
});
