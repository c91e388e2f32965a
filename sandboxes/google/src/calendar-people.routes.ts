/** Calendar's and People's routes (and oauth2 userinfo), at Google's paths. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paramsOf } from './http.ts';
import { asQuery } from './params.ts';
import type { GoogleSandbox } from './sandbox.ts';

export function registerCalendarRoutes(app: FastifyInstance, sandbox: GoogleSandbox) {
  const auth = (request: FastifyRequest) => request.headers.authorization;
  const query = (request: FastifyRequest) => asQuery(request.query);
  app.get('/calendar/v3/calendars/:calendarId/events', async (request) =>
    sandbox.calendarEvents(auth(request), query(request), paramsOf(request).calendarId ?? 'primary'),
  );
  app.get('/calendar/v3/users/me/calendarList', async (request) => sandbox.calendarList(auth(request), query(request)));
}

export function registerPeopleRoutes(app: FastifyInstance, sandbox: GoogleSandbox) {
  const auth = (request: FastifyRequest) => request.headers.authorization;
  const query = (request: FastifyRequest) => asQuery(request.query);
  app.get('/v1/people/:person/connections', async (request) =>
    sandbox.peopleConnections(auth(request), query(request), `people/${paramsOf(request).person ?? ''}`),
  );
  app.get('/v1/people/me', async (request) => sandbox.peopleMe(auth(request), query(request)));
  app.get('/v1/otherContacts', async (request) => sandbox.otherContacts(auth(request), query(request)));
  app.get('/oauth2/v2/userinfo', async (request) => sandbox.userinfo(auth(request), query(request)));
}
