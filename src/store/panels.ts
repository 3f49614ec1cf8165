import unsafeCharge from '../lab/examples/unsafe-charge.json';
import { createToolsClient } from '../worker/toolsClient';
import { createPanelsStore } from './panelsStore';

/** The page's panels store, on the tools worker, with the reviewer prefilled with the unsafe example. */
export const usePanelsStore = createPanelsStore(createToolsClient(), `${JSON.stringify(unsafeCharge, null, 2)}\n`);
