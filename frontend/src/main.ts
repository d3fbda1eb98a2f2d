import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { start } from './lib/start';

// Start the transport before the first render so components can use it right away.
const ready = start();
const app = mount(App, { target: document.getElementById('app')! });
void ready;

export default app;
