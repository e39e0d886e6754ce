/**
 * Pomodoro's passive projection (seed 003 §7): it shows the focus session the runtime holds for it and has
 * no start/pause/stop buttons of its own. The SDK wiring (session data, lifecycle) lands with the SDK issues;
 * until then the page shows that no focus session is running.
 */
const app = document.getElementById('app');
if (!app) throw new Error('Pomodoro: index.html has no #app element.');

const heading = document.createElement('h1');
heading.textContent = 'Pomodoro';
const statusLine = document.createElement('p');
statusLine.setAttribute('role', 'status');
statusLine.textContent = 'No focus session is running.';
app.append(heading, statusLine);
