import { mount } from 'svelte';
import { Accounts } from './accounts/accounts.svelte.ts';
import App from './App.svelte';
import { Drafts } from './editor/drafts.svelte.ts';
import { createBridge } from './lib/bridge.ts';
import { Workspace } from './queries/workspace.svelte.ts';
import { Runs } from './runs/runs.svelte.ts';

const { api, connection } = createBridge();
const workspace = new Workspace(api, new Accounts(api), new Drafts(api));
// The OS says the network is back: main retries an offline account at once.
window.addEventListener('online', () => void api.invoke('workspace:network', { online: true }));
const runs = new Runs(api);

void workspace.load();

mount(App, { target: document.getElementById('app')!, props: { api, connection, workspace, runs } });
