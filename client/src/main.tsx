import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { FullScreenLoading } from './components/FullScreenStatus.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">');

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider>
        <Suspense fallback={<FullScreenLoading />}>
          <App />
        </Suspense>
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
