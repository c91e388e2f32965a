import {
  askIntroActionMessage,
  contactOwnerIntroRequest,
  introTargetForward,
  requestWithForwardNote,
  type TRecommendedAction,
} from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { member } from '../../testing/users.ts';
import {
  askIntroPrefill,
  canSendThankYou,
  directMessagePrefill,
  introConnector,
  isActionFor,
  thankYouPrefill,
  toActionFilterItems,
} from './actionsDisplay.ts';
import { pastAskJohn, recommendedActions } from './testing/actionsFixtures.ts';

const [askJohn, moveMary, helloPaul] = recommendedActions as [
  TRecommendedAction,
  TRecommendedAction,
  TRecommendedAction,
];
const me = member.id;
const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** John's intro asked of Ivy, a client ally whose relationship Olga owns. */
const throughIvy: TRecommendedAction = {
  ...askJohn,
  connector: null,
  source: 'client',
  clientConnector: {
    id: uuid(21),
    name: 'Ivy Client',
    linkedinProfileImageUrl: null,
    companyName: 'Initech',
    companyLogo: null,
    jobTitle: 'COO',
    tag: 'Client',
    contactOwner: { id: uuid(31), fullName: 'Olga Owner', avatar: null },
    connectionSources: ['GOOGLE_MEETING'],
    proximity: 50,
  },
};

describe('who an ask-intro goes through', () => {
  it('is the colleague, with their id for the send', () => {
    expect(introConnector(askJohn, me)).toMatchObject({ connectorId: askJohn.connector?.id, owner: null });
  });

  it("is the client ally, asked through their contact owner, with the ally's id for the send", () => {
    expect(introConnector(throughIvy, me)).toMatchObject({
      connectorId: uuid(21),
      ally: { fullName: 'Ivy Client', companyName: 'Initech' },
      owner: { fullName: 'Olga Owner' },
    });
  });

  it("is the user's own client ally, asked directly", () => {
    const mine: TRecommendedAction = {
      ...throughIvy,
      clientConnector: throughIvy.clientConnector && {
        ...throughIvy.clientConnector,
        contactOwner: { id: me, fullName: 'Ada Lovelace', avatar: null },
      },
    };
    expect(introConnector(mine, me)).toMatchObject({ connectorId: uuid(21), owner: null });
  });

  it('is nobody for a direct message', () => {
    expect(introConnector(moveMary, me)).toBeNull();
  });
});

describe('the panels prefill', () => {
  it('asks the colleague with the plain template, or the owner with theirs', () => {
    const input = {
      connectorFullName: 'Jane Doe',
      targetFullName: 'John Smith',
      targetCompanyName: 'Acme',
      userFullName: 'Ada Lovelace',
    };
    const colleague = introConnector(askJohn, me);
    const owner = introConnector(throughIvy, me);
    if (!colleague || !owner) throw new Error('Both go through someone');
    expect(askIntroPrefill(askJohn, colleague, 'Ada Lovelace')).toBe(
      requestWithForwardNote(askIntroActionMessage({ ...input, pastClient: null }), introTargetForward(input)),
    );
    const viaIvy = { ...input, connectorFullName: 'Ivy Client' };
    expect(askIntroPrefill(throughIvy, owner, 'Ada Lovelace')).toBe(
      requestWithForwardNote(
        contactOwnerIntroRequest({ ...viaIvy, ownerFullName: 'Olga Owner' }),
        introTargetForward(viaIvy),
      ),
    );
  });

  it("tells the connector of a past client's move", () => {
    const moved = { ...askJohn, signals: moveMary.signals };
    const colleague = introConnector(moved, me);
    if (!colleague) throw new Error('Goes through Jane');
    expect(askIntroPrefill(moved, colleague, 'Ada Lovelace')).toContain(
      'John Smith, whom we worked with at Unknown, has just moved to Globex.',
    );
  });

  it("greets a prospect by name, or congratulates a past client on the move, with 'Unknown' for a missing company", () => {
    expect(directMessagePrefill(helloPaul, 'Ada Lovelace')).toBe('Hello Paul Plain..');
    const message = directMessagePrefill(moveMary, 'Ada Lovelace');
    expect(message).toContain('your move to Globex');
    expect(message).toContain('working with you at Unknown');
  });
});

describe('actions helpers', () => {
  it('lets only the users an action is for act on it', () => {
    expect(isActionFor({ recommendationUsers: [{ id: uuid(1) }, { id: uuid(2) }] }, uuid(2))).toBe(true);
    expect(isActionFor({ recommendationUsers: [{ id: uuid(1) }] }, uuid(2))).toBe(false);
  });

  it('sends only the filters with values, in the contract order', () => {
    expect(toActionFilterItems({ signal: ['PAST_CLIENT'], user: [], company: ['c1', 'c2'] })).toEqual([
      { filterName: 'company', values: ['c1', 'c2'] },
      { filterName: 'signal', values: ['PAST_CLIENT'] },
    ]);
  });
});

describe('the thank-you of the outcome loop', () => {
  it('is for the user who sent an intro request that got a reply, until they sent it', () => {
    expect(canSendThankYou(pastAskJohn, me)).toBe(true);
    expect(canSendThankYou(pastAskJohn, uuid(51))).toBe(false);
    expect(canSendThankYou({ ...pastAskJohn, replied: false, repliedAt: null }, me)).toBe(false);
    expect(canSendThankYou({ ...pastAskJohn, thankedAt: new Date().toISOString() }, me)).toBe(false);
    expect(canSendThankYou({ ...pastAskJohn, actionType: 'DIRECT_MESSAGE', connectorUser: null }, me)).toBe(false);
    expect(canSendThankYou({ ...pastAskJohn, status: 'skipped' }, me)).toBe(false);
  });

  it('thanks the connector by first name for the intro to the target, signed by the user', () => {
    expect(thankYouPrefill(pastAskJohn, 'Ada Lovelace')).toMatch(
      /^Hi Jane,\n\nThank you for introducing me to John Smith\.[\s\S]*\nAda Lovelace$/,
    );
  });
});
