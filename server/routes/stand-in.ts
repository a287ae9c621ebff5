/**
 * `GET {base}` of a local engine: what it is (a stand-in, said plainly), where it answers, and what
 * it asks of a caller. Each engine adds its own endpoints and figures.
 */
import { type ServerConfig } from '../config';
import { sendJson } from '../http-utils';
import { type Route } from '../router';

export interface StandInAbout {
  service: string;
  description: string;
  [detail: string]: unknown;
}

export function standInRoute(config: ServerConfig, base: string, about: (origin: string) => StandInAbout): Route {
  const auth = config.localToken === undefined ? 'any Bearer token or none' : 'Bearer token required (ATELIER_LOCAL_TOKEN)';
  return {
    path: base,
    methods: {
      GET: ({ res, origin }) => {
        const { service, description, ...details } = about(origin);
        sendJson(res, 200, { service, standIn: true, description, baseUrl: `${origin}${base}`, ...details, auth });
      },
    },
  };
}
