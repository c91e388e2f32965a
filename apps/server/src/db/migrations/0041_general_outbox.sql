ALTER TABLE "deliveries" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "email_id" uuid;--> statement-breakpoint
-- Every e-mail becomes a delivery to its sender's Gmail, keeping its attempts and schedule; a worker
-- queues the pending ones again as it starts (requeueStrandedDeliveries).
INSERT INTO "deliveries" ("workspace_id", "email_id", "destination", "status", "attempts", "next_attempt_at", "last_error", "created_at", "delivered_at")
SELECT o."workspace_id", o."id", 'email',
       CASE o."status" WHEN 'sent' THEN 'delivered' WHEN 'failed' THEN 'failed' ELSE 'pending' END,
       o."attempts",
       CASE WHEN o."status" IN ('sent', 'failed') THEN NULL ELSE coalesce(d."due_at", now()) END,
       o."last_error", o."created_at", o."sent_at"
  FROM "outbox" o LEFT JOIN "outbox_dispatch" d ON d."outbox_id" = o."id";--> statement-breakpoint
UPDATE "outbox" SET "status" = CASE WHEN "draft_id" IS NULL THEN 'pending' ELSE 'drafted' END WHERE "status" = 'failed';--> statement-breakpoint
ALTER TABLE "outbox_dispatch" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "outbox_dispatch" CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_email_key" ON "deliveries" USING btree ("workspace_id","email_id");--> statement-breakpoint
CREATE INDEX "deliveries_pending_idx" ON "deliveries" USING btree ("status") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "outbox" DROP COLUMN "attempts";--> statement-breakpoint
ALTER TABLE "outbox" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_one_subject" CHECK (num_nonnulls("deliveries"."event_id", "deliveries"."email_id") = 1);