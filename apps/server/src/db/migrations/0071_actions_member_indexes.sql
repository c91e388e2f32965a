-- A member's own actions, found by their user: their tab counts (the actions page's badges, asked on
-- every visit) read every action of the team instead, 3,000 in the scale bench's workspace, 12 ms a call
-- under its load. GIN serves containment (recommendation_users @> array[user]); the owner's tabs
-- (past, skipped) go by the btree.
CREATE INDEX "actions_recommendation_users_idx" ON "actions" USING gin ("recommendation_users");--> statement-breakpoint
CREATE INDEX "actions_owner_idx" ON "actions" USING btree ("workspace_id","owner_user_id","status");