import { data, Form, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { listUsers, setAdminRight } from "~/domain/users/admin-rights";
import { requireAdmin } from "~/app/lib/admin.server";
import type { Route } from "./+types/users";

export async function loader(args: Route.LoaderArgs) {
  const me = await requireAdmin(args);
  return { users: await listUsers(args.context.repos), myId: me.id };
}

const ChangeRight = z.object({ userId: z.string().min(1), isAdmin: z.enum(["true", "false"]) });

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const parsed = ChangeRight.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return data({ error: "That request was not understood." }, { status: 400 });
  try {
    await setAdminRight(args.context.repos, { actorUserId: me.id, userId: parsed.data.userId, isAdmin: parsed.data.isAdmin === "true" });
    return { error: null };
  } catch (error) {
    if (error instanceof DomainError) return data({ error: error.message }, { status: 409 });
    throw error;
  }
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <>
      <h1 className="font-display text-4xl font-extrabold">Users</h1>
      <p className="mt-1 text-ink/70">Who may use the back office. New accounts are not admins until an admin grants it here.</p>
      {result?.error ? (
        <p role="alert" className="mt-4 rounded-lg border-2 border-alarm bg-alarm/10 px-3 py-2 font-semibold text-alarm-ink">
          {result.error}
        </p>
      ) : null}
      <div className="mt-6 overflow-x-auto rounded-2xl border-2 border-ink bg-white">
        <table className="w-full text-left text-sm">
          <thead className="border-b-2 border-ink bg-paper-deep">
            <tr>
              <th scope="col" className="px-4 py-3">E-mail</th>
              <th scope="col" className="px-4 py-3">Verified</th>
              <th scope="col" className="px-4 py-3">Role</th>
              <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {loaderData.users.map((user) => (
              <tr key={user.id} className="border-b border-ink/10 last:border-0">
                <td className="px-4 py-3 font-semibold">
                  {user.email}
                  {user.id === loaderData.myId ? <span className="ml-2 text-xs text-ink/60">(you)</span> : null}
                </td>
                <td className="px-4 py-3">{user.emailVerified ? "Yes" : "Not yet"}</td>
                <td className="px-4 py-3">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${user.isAdmin ? "bg-acid" : "bg-paper-deep"}`}>{user.isAdmin ? "Admin" : "Editor"}</span>
                </td>
                <td className="px-4 py-3 text-right">
                  <Form method="post">
                    <input type="hidden" name="userId" value={user.id} />
                    <input type="hidden" name="isAdmin" value={String(!user.isAdmin)} />
                    <button
                      type="submit"
                      disabled={navigation.state !== "idle"}
                      className="rounded-full border-2 border-ink px-3 py-1 font-bold hover:bg-acid disabled:opacity-60"
                    >
                      {user.isAdmin ? "Revoke admin" : "Make admin"}
                      <span className="sr-only"> for {user.email}</span>
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
