import type { Explorers } from '$contract/index.ts';
import { DEFAULT_EXPLORERS } from '../../../../main/common/explorers/index.ts';

/** The block explorer of each chain, as the Settings have it; set when the settings load or change. */
export const explorerSettings: { explorers: Explorers } = $state({ explorers: structuredClone(DEFAULT_EXPLORERS) });
