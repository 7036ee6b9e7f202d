import type { User } from "../api.ts";
import { useDisplayed } from "../displayed.ts";
import { useData } from "../use-data.ts";
import type { ScreenProps } from "./screen-props.ts";

export function UserAdministrationScreen({ path }: ScreenProps) {
  const { data, error } = useData<{ users: User[] }>("/api/workdesk/users");
  useDisplayed(path, !!data);
  return (
    <>
      <h1>User administration</h1>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <table className="requests">
          <caption>{data.users.length} users</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Name</th>
              <th scope="col">Organisation</th>
              <th scope="col">Roles</th>
            </tr>
          </thead>
          <tbody>
            {data.users.map((user) => (
              <tr key={user.id}>
                <td>{user.id}</td>
                <td>{user.displayName}</td>
                <td>{user.orgScope}</td>
                <td>{user.roles.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
