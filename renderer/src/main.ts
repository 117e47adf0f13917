import { mount } from 'svelte';
import App from './App.svelte';
import { createBridge } from './lib/bridge.ts';
import { Accounts } from './accounts/accounts.svelte.ts';
import { Runs } from './runs/runs.svelte.ts';
import { Workspace } from './queries/workspace.svelte.ts';

const { api, connection } = createBridge();
const workspace = new Workspace(api, new Accounts(api));
const runs = new Runs(api);

void workspace.load();

mount(App, { target: document.getElementById('app')!, props: { api, connection, workspace, runs } });
