import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { isExpectedPageError } from './page-errors.ts';
import { getLocale } from '../lib/i18n.ts';
import { probeNetwork } from '../lib/network-probe.ts';
import { registerServiceWorker } from '../features/sync/UpdatePrompt.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
document.documentElement.lang = getLocale();
probeNetwork();
createRoot(root, {
  onCaughtError(error, info) {
    if (!isExpectedPageError(error)) console.error(error, info.componentStack);
  },
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
registerServiceWorker();
