import type { BrowserContext, Page } from '@playwright/test';

// Watches a whole browser context for what a locked-down page must never do: a Content-Security-Policy
// violation and any request that leaves the page's own origin. A document's violations arrive as
// `securitypolicyviolation` events; a worker's cannot be listened to from outside, but what they break
// shows on the console (Chromium logs each refusal there, and an eval refused in a worker throws), so
// the watch also keeps every console error or warning of the pages and their workers, and every
// uncaught error.

export interface Violation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
  sample: string;
}

declare global {
  interface Window {
    __labViolations?: Violation[];
  }
}

export class PolicyWatch {
  readonly requests: string[] = [];
  readonly foreignRequests: string[] = [];
  readonly consoleProblems: string[] = [];
  readonly uncaughtErrors: string[] = [];

  constructor(
    readonly context: BrowserContext,
    readonly origin: string,
  ) {}

  /** Starts watching: call before the first page opens. */
  async start(): Promise<void> {
    await this.context.addInitScript(() => {
      window.__labViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.__labViolations?.push({
          directive: event.effectiveDirective,
          blockedURI: event.blockedURI,
          sourceFile: event.sourceFile,
          sample: event.sample,
        });
      });
    });
    this.context.on('request', (request) => {
      const url = request.url();
      this.requests.push(url);
      if (url.startsWith('data:') || url.startsWith('blob:')) return;
      if (new URL(url).origin !== this.origin) this.foreignRequests.push(`${request.method()} ${url}`);
    });
    this.context.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        this.consoleProblems.push(
          `${message.type()} in ${message.worker()?.url() ?? 'the page'}: ${message.text().slice(0, 300)}`,
        );
      }
    });
    this.context.on('weberror', (error) => this.uncaughtErrors.push(error.error().message));
  }

  /** The violations each page's document saw (read before the page closes or reloads). */
  violations(page: Page): Promise<Violation[]> {
    return page.evaluate(() => window.__labViolations ?? []);
  }
}
