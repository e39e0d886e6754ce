// First: before any module builds a zod schema (zod-config.ts).
import './zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import '@lineup/renderer-react/styles.css';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('LineUp Web Reference Host: index.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
