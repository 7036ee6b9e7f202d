import type { WorkdeskUser } from "./users.ts";
import { afterAll, describe, expect, it } from "vitest";
import { lookupScreens } from "./lookup-screens.ts";
import { breadcrumb, SCREENS, screenById, screensFor, type Screen } from "./screens.ts";
import { WORKDESK_USERS } from "./users.ts";
import { createSqliteWorkRequestRepository } from "./sqlite-work-request-repository.ts";

function user(userId: string): WorkdeskUser {
  const found = WORKDESK_USERS.find((candidate) => candidate.id === userId);
  if (!found) throw new Error(`No demo user "${userId}".`);
  return found;
}

const kim = user("kim");
const lee = user("lee");
const park = user("park");
const admin = user("admin");
const requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
afterAll(() => requests.closeDatabase());

const ids = async (query: string, who: WorkdeskUser) => (await lookupScreens(query, who, requests)).candidates.map((candidate) => candidate.screenId);

describe("lookupScreens", () => {
  it("works from screens nobody can change in place, so the words it worked out once stay true of them", () => {
    const userAdmin = screenById("MNU-9000")!;
    expect(userAdmin.roles).toEqual(["admin"]);
    expect(() => (userAdmin.synonyms as string[]).push("home")).toThrow(TypeError);
    expect(() => ((userAdmin as { roles?: string[] }).roles = undefined)).toThrow(TypeError);
    expect(() => (SCREENS as Screen[]).push({ ...userAdmin, id: "MNU-9999", roles: undefined })).toThrow(TypeError);
  });

  it.each(["work request list", "requests", "ticket list", "Work Request List", "my requests"])(
    "finds the work request list first when kim asks for %j",
    async (query) => {
      expect((await ids(query, kim))[0]).toBe("MNU-3120");
    },
  );

  it("gives the list its route and menu path, so the user can also go there by hand", async () => {
    const [best] = (await lookupScreens("work request list", kim, requests)).candidates;
    expect(best).toMatchObject({ screenId: "MNU-3120", name: "Work request list", route: "/work-requests", path: "Work management › Work request list" });
  });

  it("finds the dashboard by its synonyms", async () => {
    expect((await ids("home", kim))[0]).toBe("MNU-3100");
    expect((await ids("start page", kim))[0]).toBe("MNU-3100");
  });

  it("finds the new request form by what people call it", async () => {
    expect((await ids("report a problem", kim))[0]).toBe("MNU-3140");
    expect((await ids("new work request", kim))[0]).toBe("MNU-3140");
  });

  it("reports the organisation the lookup was made in", async () => {
    expect((await lookupScreens("dashboard", park, requests)).orgScope).toBe("ORG-02");
  });

  it("leads kim from R-1042 to its detail screen first, with the record in the payload and the route filled in, then to the list", async () => {
    const lookup = await lookupScreens("R-1042", kim, requests);
    expect(lookup.candidates.map((candidate) => candidate.screenId)).toEqual(["MNU-3130", "MNU-3120"]);
    expect(lookup.candidates[0]).toMatchObject({
      name: "Work request detail",
      route: "/work-requests/R-1042",
      payload: { requestId: "R-1042" },
      matchedOn: "record",
    });
    expect(lookup.candidates[1]?.payload).toBeUndefined();
    expect(lookup.available).toBeUndefined();
  });

  it("understands a record id written without the dash or in lower case", async () => {
    expect((await lookupScreens("r1042", kim, requests)).candidates[0]).toMatchObject({ screenId: "MNU-3130", payload: { requestId: "R-1042" } });
  });

  it("never leads park (ORG-02) to another organisation's R-1042, nor mentions what it is", async () => {
    const lookup = await lookupScreens("R-1042", park, requests);
    expect(lookup.candidates.map((candidate) => candidate.screenId)).not.toContain("MNU-3130");
    expect(lookup.candidates.some((candidate) => candidate.payload !== undefined)).toBe(false);
    expect(JSON.stringify(lookup)).not.toMatch(/badge|reader|gate 3/i);
  });

  it("does not make up a detail screen for a request that does not exist", async () => {
    expect(await ids("R-9999", kim)).not.toContain("MNU-3130");
  });

  it.each(["approvals", "pending approvals", "user administration", "admin", "users"])(
    "keeps the screens kim may not open out of her lookup for %j",
    async (query) => {
      const lookup = await lookupScreens(query, kim, requests);
      const mentioned = [...lookup.candidates.map((candidate) => candidate.screenId), ...(lookup.available ?? []).map((screen) => screen.screenId)];
      expect(mentioned).not.toContain("MNU-3200");
      expect(mentioned).not.toContain("MNU-9000");
      expect(JSON.stringify([lookup.candidates, lookup.available])).not.toMatch(/approval|administration/i);
      const kimCanOpen = new Set(screensFor(kim).map((screen) => screen.id));
      for (const id of mentioned) expect(kimCanOpen).toContain(id);
    },
  );

  it("finds the approvals screen for lee, a manager", async () => {
    expect((await ids("approvals", lee))[0]).toBe("MNU-3200");
    expect((await ids("pending approvals", lee))[0]).toBe("MNU-3200");
  });

  it("finds user administration for the admin", async () => {
    const [best] = (await lookupScreens("user administration", admin, requests)).candidates;
    expect(best).toMatchObject({ screenId: "MNU-9000", route: "/admin/users" });
  });

  it("finds nothing for words no screen answers to, and offers the screens the user can open instead", async () => {
    const lookup = await lookupScreens("quantum flux capacitor", kim, requests);
    expect(lookup.candidates).toEqual([]);
    expect(lookup.available).toEqual([
      { screenId: "MNU-3100", name: "Dashboard" },
      { screenId: "MNU-3120", name: "Work request list" },
      { screenId: "MNU-3140", name: "New work request" },
    ]);
  });

  it("offers a manager's extra screen when nothing matched for lee", async () => {
    const available = (await lookupScreens("quantum flux capacitor", lee, requests)).available?.map((screen) => screen.screenId);
    expect(available).toContain("MNU-3200");
    expect(available).not.toContain("MNU-9000");
  });

  it("never offers the detail screen on its own, since it needs a record to open", async () => {
    for (const who of WORKDESK_USERS) {
      expect((await lookupScreens("quantum flux capacitor", who, requests)).available?.map((screen) => screen.screenId)).not.toContain("MNU-3130");
      expect(await ids("request detail", who)).not.toContain("MNU-3130");
    }
  });

  it("returns at most five candidates", async () => {
    expect((await lookupScreens("work", lee, requests)).candidates.length).toBeLessThanOrEqual(5);
    expect((await lookupScreens("work", lee, requests)).candidates.length).toBeGreaterThan(1);
  });
});

describe("screensFor", () => {
  it("leaves approvals and user administration out of kim's menu", async () => {
    const menu = screensFor(kim).map((screen) => screen.id);
    expect(menu).toContain("MNU-3120");
    expect(menu).not.toContain("MNU-3200");
    expect(menu).not.toContain("MNU-9000");
  });

  it("gives lee approvals but not user administration, and the admin the reverse", async () => {
    expect(screensFor(lee).map((screen) => screen.id)).toEqual(expect.arrayContaining(["MNU-3200"]));
    expect(screensFor(lee).map((screen) => screen.id)).not.toContain("MNU-9000");
    expect(screensFor(admin).map((screen) => screen.id)).toEqual(expect.arrayContaining(["MNU-9000"]));
    expect(screensFor(admin).map((screen) => screen.id)).not.toContain("MNU-3200");
  });

  it("keeps a user off everything under a group they may not see, however deep, and off what hangs from no group the menu has", () => {
    const screen = (id: string, parent?: string, roles?: string[]): Screen => ({
      id,
      name: id,
      description: id,
      synonyms: [],
      ...(parent ? { parent } : {}),
      ...(roles ? { roles } : {}),
    });
    const menu = [
      screen("FINANCE", undefined, ["manager"]),
      screen("LEDGER", "FINANCE"),
      screen("LEDGER-ENTRY", "LEDGER"),
      screen("STRAY", "NOWHERE"),
      screen("LOOP-A", "LOOP-B"),
      screen("LOOP-B", "LOOP-A"),
      screen("HOME"),
      screen("HOME-CHILD", "HOME"),
    ];
    expect(screensFor(kim, menu).map(({ id }) => id)).toEqual(["HOME", "HOME-CHILD"]);
    expect(screensFor(lee, menu).map(({ id }) => id)).toEqual(["FINANCE", "LEDGER", "LEDGER-ENTRY", "HOME", "HOME-CHILD"]);
  });
});

describe("breadcrumb", () => {
  it("spells the way to the detail screen through its menu groups", async () => {
    expect(breadcrumb(screenById("MNU-3130")!)).toBe("Work management › Work request list › Work request detail");
  });

  it("is just the name for a top-level screen", async () => {
    expect(breadcrumb(screenById("MNU-9000")!)).toBe("User administration");
  });
});
