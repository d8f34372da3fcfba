// Progressive enhancement of the memory page. Without this file every link and form
// still works (full page loads); with it, card actions and "load more" swap HTML in place.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function announce(text) {
    var live = document.getElementById("live");
    if (live) { live.textContent = ""; window.setTimeout(function () { live.textContent = text; }, 30); }
  }

  function fragment(url, options) {
    options = options || {};
    options.headers = Object.assign({ "X-UI-Fragment": "1" }, options.headers || {});
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      if (response.redirected && response.url.indexOf("/ui/login") !== -1) {
        window.location.href = response.url;
        throw new Error("login required");
      }
      return response.text().then(function (text) {
        if (!response.ok) {
          var detail = text;
          try { detail = JSON.parse(text).detail; } catch (e) { /* not a problem document */ }
          throw new Error(detail || response.statusText);
        }
        return text;
      });
    });
  }

  function nodesOf(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content;
  }

  // The page's count of the memories that hold at its time (now, or the "As of" date's),
  // after a delete or a restore on the page.
  function recount(delta) {
    var count = document.querySelector(".count[data-current]");
    if (!count) { return; }
    var current = Math.max(0, parseInt(count.dataset.current, 10) + delta);
    var noun = current === 1 ? "memory" : "memories";
    count.dataset.current = String(current);
    count.textContent = "then" in count.dataset ? current + " " + noun + " held then"
      : current + " current " + noun;
  }

  // Delete (soft forget) and restore: post the card's form, put the new card in its place.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-swap]")) { return; }
    event.preventDefault();
    var item = form.closest("li.card-item");
    var button = form.querySelector("button");
    if (button) { button.disabled = true; }
    fragment(form.action, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(new FormData(form)).toString()
    }).then(function (html) {
      var content = nodesOf(html);
      var fresh = content.querySelector("li.card-item");
      var before = item.querySelector("article");
      item.replaceWith(content);
      var status = fresh && fresh.querySelector("article").dataset.status;
      if (status && status !== before.dataset.status && !before.classList.contains("is-ended")) {
        recount(status === "forgotten" ? -1 : 1);  // a memory that held now left or came back
      }
      announce(status === "forgotten" ? "Memory deleted. You can restore it." : "Memory restored.");
      var next = fresh && fresh.querySelector("button");
      if (next) { next.focus(); }
    }).catch(function (error) {
      if (button) { button.disabled = false; }
      var note = item.querySelector(".card-error") || document.createElement("p");
      note.className = "error card-error";
      note.setAttribute("role", "alert");
      note.textContent = "Could not change this memory: " + error.message;
      item.querySelector("article").appendChild(note);
    });
  });

  // "Load more": fetch the next page's cards and put them where the button was.
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-load-more]");
    if (!link) { return; }
    event.preventDefault();
    link.setAttribute("aria-busy", "true");
    link.textContent = "Loading…";
    var item = link.closest("[data-more]");
    fragment(link.href).then(function (html) {
      var content = nodesOf(html);
      var first = content.querySelector("li.card-item a, li.card-item button");
      var count = content.querySelectorAll("li.card-item").length;
      item.replaceWith(content);
      announce(count + " more memories loaded.");
      if (first) { first.focus(); }
    }).catch(function (error) {
      link.removeAttribute("aria-busy");
      link.textContent = "Load more";
      announce("Could not load more: " + error.message);
    });
  });

  // Filters apply as soon as they change (the submit buttons stay for keyboard users).
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.matches("[data-autosubmit]") && input.form) { input.form.requestSubmit(); }
  });
})();
