// The message templates of spec section 4, filled on open and editable before sending.

const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] ?? fullName;

export type IntroTemplateInput = {
  connectorFullName: string;
  targetFullName: string;
  targetCompanyName: string | null;
  userFullName: string;
};

const at = (companyName: string | null) => (companyName ? ` at ${companyName}` : '');

/** To a colleague (or an ally) who knows the target: the ask itself. */
export function connectorIntroRequest(input: IntroTemplateInput) {
  return [
    `Hi ${firstNameOf(input.connectorFullName)},`,
    '',
    `I saw that you know ${input.targetFullName}${at(input.targetCompanyName)}. Would you be open to introducing us? ` +
      'Only if you are comfortable with it: a no is perfectly fine.',
    'Below is a short note you can forward as it is, or change as you like.',
    '',
    'Thank you,',
    input.userFullName,
  ].join('\n');
}

/** The note the connector forwards to the target. */
export function introTargetForward(input: IntroTemplateInput) {
  return [
    `Hi ${firstNameOf(input.targetFullName)},`,
    '',
    `I would like to introduce you to ${input.userFullName}, who would love to connect with you. ` +
      'I think a short conversation would be worth your while.',
    '',
    'Best,',
    input.connectorFullName,
  ].join('\n');
}

/**
 * The intro request as it is sent: the request, then the note for the target below it, which the
 * connector forwards as it is or edits (the request says 'Below is a short note...').
 */
export function requestWithForwardNote(request: string, note: string) {
  return note.trim() ? `${request}\n\n---\n\n${note}` : request;
}

/** To the member who owns the relationship with a client ally: ask the ally on our behalf. */
export function contactOwnerIntroRequest(input: IntroTemplateInput & { ownerFullName: string }) {
  return [
    `Hi ${firstNameOf(input.ownerFullName)},`,
    '',
    `${input.connectorFullName}, whose relationship you own, knows ${input.targetFullName}${at(input.targetCompanyName)}. ` +
      `Would you ask ${firstNameOf(input.connectorFullName)} whether they would introduce us? ` +
      'Below is a note they could forward.',
    '',
    'Thank you,',
    input.userFullName,
  ].join('\n');
}

/** The Ask intro panel of the recommended actions: the template with connector and target names. */
export const askIntroMessage = connectorIntroRequest;

type PastClientMove = { newCompanyName: string | null; pastCompanyName: string | null };

/** Ask-intro engagement after a job change (spec section 4): the target is a past client who moved. */
export function askIntroAfterJobChange(input: IntroTemplateInput & { pastClient: PastClientMove }) {
  const newCompany = input.pastClient.newCompanyName ?? 'Unknown';
  const pastCompany = input.pastClient.pastCompanyName ?? 'Unknown';
  return [
    `Hi ${firstNameOf(input.connectorFullName)},`,
    '',
    `${input.targetFullName}, whom we worked with at ${pastCompany}, has just moved to ${newCompany}. ` +
      'I saw that you know them: would you be open to introducing us? ' +
      'Only if you are comfortable with it: a no is perfectly fine.',
    '',
    'Thank you,',
    input.userFullName,
  ].join('\n');
}

/** The Ask intro panel's prefill: the job-change variant for a PAST_CLIENT signal, else the plain ask. */
export function askIntroActionMessage(input: IntroTemplateInput & { pastClient: PastClientMove | null }) {
  return input.pastClient ? askIntroAfterJobChange({ ...input, pastClient: input.pastClient }) : askIntroMessage(input);
}

/** The direct message to a prospect (spec section 4): a past client's move, or a plain hello. */
export function directMessage(input: {
  prospectFullName: string;
  userFullName: string;
  pastClient: { newCompanyName: string | null; pastCompanyName: string | null } | null;
}) {
  if (!input.pastClient) return `Hello ${input.prospectFullName}..`;
  const newCompany = input.pastClient.newCompanyName ?? 'Unknown';
  const pastCompany = input.pastClient.pastCompanyName ?? 'Unknown';
  return [
    `Hi ${input.prospectFullName},`,
    '',
    `Congratulations on your move to ${newCompany}! We enjoyed working with you at ${pastCompany}, ` +
      `and would be glad to help you at ${newCompany} too.`,
    '',
    'Best,',
    input.userFullName,
  ].join('\n');
}

/** The thank-you note to the connector who made an intro, once the thread got a reply (the outcome loop). */
export function thankYouNote(input: { connectorFullName: string; targetFullName: string; userFullName: string }) {
  return [
    `Hi ${firstNameOf(input.connectorFullName)},`,
    '',
    `Thank you for introducing me to ${input.targetFullName}. I really appreciate you taking the time, ` +
      'and I will let you know how it goes.',
    '',
    'Best,',
    input.userFullName,
  ].join('\n');
}

export { firstNameOf };

/** The direct message's subject until the sender edits it (the Engage with Prospect panel, the server's default). */
export const directMessageSubject = (senderFullName: string) => `Hello from ${senderFullName}`;
