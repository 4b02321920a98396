import { Form, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import { listUsers, setAdminRight } from "~/domain/users/admin-rights";
import { requireAdmin } from "~/app/lib/admin.server";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { adminAction, intent } from "~/app/lib/admin-action.server";
import { PageHeader } from "~/app/components/admin/page-header";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/users";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Users");
}

export async function loader(args: Route.LoaderArgs) {
  const me = await requireAdmin(args);
  return { users: await listUsers(args.context.repos), myId: me.id };
}

const NOT_UNDERSTOOD = "That request was not understood.";
const ChangeRight = z.object({
  userId: z.string({ message: NOT_UNDERSTOOD }).min(1, NOT_UNDERSTOOD),
  isAdmin: z.enum(["true", "false"], { message: NOT_UNDERSTOOD }),
});

export async function action(args: Route.ActionArgs) {
  return adminAction(
    args,
    {
      "set-admin": intent({
        schema: ChangeRight,
        run: async (input, { me, context }) => {
          const isAdmin = input.isAdmin === "true";
          await setAdminRight(context.repos, { actorUserId: me.id, userId: input.userId, isAdmin });
          return { ok: true, toast: { title: isAdmin ? "Admin right granted" : "Admin right removed" } } satisfies ActionResult;
        },
      }),
    },
    { title: "Error", fallback: "Failed to change the admin right. Please try again." },
  );
}

export default function Users({ loaderData }: Route.ComponentProps) {
  useActionToast(useActionData<ActionResult>());
  const navigation = useNavigation();
  return (
    <>
      <PageHeader title="Users" description="Who may use the back office. New accounts are not admins until an admin grants it here." />
      {/* relative: the buttons' hidden labels (sr-only, absolutely placed) scroll with the table instead of widening the page. */}
      <div className="relative mt-6 overflow-x-auto rounded-2xl border-2 border-ink bg-white">
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
                    <input type="hidden" name="intent" value="set-admin" />
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
