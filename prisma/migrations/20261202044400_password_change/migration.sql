-- AlterTable: an admin's password reset makes the user choose a new one at next sign-in.
ALTER TABLE "User" ADD COLUMN "mustChangePassword" BOOLEAN NOT NULL DEFAULT false;
