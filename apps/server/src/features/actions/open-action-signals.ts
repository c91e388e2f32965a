import type { RaisedSignalsListener } from '../../graph/raised.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { networkRows } from '../network/network.repo.ts';
import { hasOpenActions, setOpenActionSignals } from './actions.repo.ts';

/** No member: the rows' signals do not depend on who asks. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * Open actions follow their prospect's signals: a recommendation made this morning shows the pricing
 * page its prospect visited an hour ago. A listener of the graph job's raised signals, in its batch's
 * transaction; workspaces without open actions pay one query.
 */
export const openActionSignals: RaisedSignalsListener = {
  listens: (tx, workspaceId) => hasOpenActions(tx, workspaceId),
  raised: async (tx, workspaceId, raised) => {
    const prospectIds = [...new Set(raised.map((signal) => signal.prospectId))];
    const { model } = await loadGraphSettings(tx, workspaceId);
    for (const row of await networkRows(tx, { workspaceId, userId: NOBODY }, prospectIds, model)) {
      await setOpenActionSignals(tx, workspaceId, row.id, row.signals);
    }
  },
};
