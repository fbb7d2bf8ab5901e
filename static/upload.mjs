/* The upload forms ("New bot", "Upload a new version"): a file over the site's limit
 * is refused here, before seconds of sending, with the same words the server would
 * use; a form being sent says so. Without this script the server refuses on the form
 * itself. */

function mib(bytes) {
  return Math.round(bytes / (1024 * 1024));
}

/** The message box of `form`, made on first use, above its fields. */
function messageBox(form) {
  let box = form.querySelector(".upload-check");
  if (!box) {
    box = document.createElement("p");
    box.className = "alert error upload-check";
    box.setAttribute("role", "alert");
    form.prepend(box);
  }
  return box;
}

/** Whether the chosen file fits; says why not on the form. */
function check(form, input) {
  const max = Number(form.getAttribute("data-max-bytes"));
  const file = input.files && input.files[0];
  const box = form.querySelector(".upload-check");
  if (file && max && file.size > max) {
    const text = file.name + " is " + (file.size / (1024 * 1024)).toFixed(1) + " MiB: larger than " +
      "this site accepts (" + mib(max) + " MiB). Upload the bot's source without build output, " +
      "data or dependencies.";
    messageBox(form).textContent = text;
    input.setCustomValidity(text);
    return false;
  }
  if (box) box.remove();
  input.setCustomValidity("");
  return true;
}

for (const form of document.querySelectorAll("form.upload-form")) {
  const input = form.querySelector("input[type=file]");
  if (!input) continue;
  input.addEventListener("change", () => check(form, input));
  form.addEventListener("submit", (e) => {
    if (!check(form, input)) {
      e.preventDefault();
      return;
    }
    const button = form.querySelector("button[type=submit]");
    if (button) {
      button.disabled = true;
      button.textContent = "Uploading…";
    }
  });
}
