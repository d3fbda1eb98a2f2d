import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { connect, start } from './lib/start';
import { transportContext } from './lib/transport';

// Connect before the first render, so components find the transport in their context.
const connection = connect();
const ready = start(connection);
const app = mount(App, { target: document.getElementById('app')!, context: transportContext(connection.transport) });
void ready;

export default app;
