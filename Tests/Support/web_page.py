"""Drives VoiceAlarm's web page in a real headless Chromium, the way a person does on a phone.

    python web_page.py SCENARIO PAIRING_LINK OUT_DIR [MICROPHONE_WAV]

Scenarios:
  phone   pair with the link (a wrong code first, refused), record from the fake microphone (MICROPHONE_WAV) for about 4 s,
          make playlist 'morning' with it, add an alarm at 07:30 on weekdays, save a 360 px wide
          screenshot of the alarm list (OUT_DIR/alarms-360px.png), turn its voice off.
  stop    pair, wait for 'Ringing now', press Snooze; when it rings again, press Stop.

Prints one JSON object: what the page said at each step ({"steps": [...], "ok": bool}). With
WEB_PAGE_PROGRESS=FILE in the environment, each step's name is also appended to FILE as it happens,
so the test can act on the page's state while the scenario runs (the second ring of 'stop').
Chromium's fake capture flags make the WAV the microphone (see ../shared/notes).

Every wait is for the page's own state, never for a time: the text an action says, the element it
draws, and no part of the page still busy (`aria-busy`: a list whose newest request has not been
drawn yet). A person's phone does the same: they act on what the page shows.

In 'phone', the answer to the page's second request for the playlists (the refresh an import
starts) is held back for 1.5 s, so it arrives after the playlist made next has been drawn: the
page must draw from its newest request only (it drew the older answer over the newer one, and the
playlist vanished). And the page must fit the phone's 360 px with a long folder name on it: a
wider page is scaled, and taps land beside their buttons (a TimeoutException after "Created
morning", in clones whose path was long).
"""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

# The page's fetch, wrapped before its scripts run: the answer to the Nth GET of a path is handed to
# the page only after a delay, as a busy server or network would hand it. Once the page has read
# it and done what it does with it (its promise chain runs on before any timer), `lateAnswerRead`.
LATE_ANSWER = """
(() => {
  const path = %s, nth = %d, delay = %d;
  const fetch = window.fetch.bind(window);
  let seen = 0;
  window.fetch = async (input, init) => {
    const late = (!init || !init.method || init.method === "GET") && new URL(String(input), location.href).pathname === path && ++seen === nth;
    const response = await fetch(input, init);
    if (!late) return response;
    await new Promise((resolve) => setTimeout(resolve, delay));
    const text = response.text.bind(response);
    response.text = async () => {
      const body = await text();
      setTimeout(() => { window.lateAnswerRead = true; }, 0);
      return body;
    };
    return response;
  };
})();
"""


def progress(steps, step):
    """Records a step, and says it at once to whoever follows the run (WEB_PAGE_PROGRESS)."""
    steps.append(step)
    path = os.environ.get("WEB_PAGE_PROGRESS")
    if path:
        with open(path, "a") as file:
            file.write(step["step"] + "\n")


def until(driver, condition, timeout=60):
    """Waits for a state of the page, looking every tenth of a second."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition)


def settled(driver):
    """No part of the page is waiting for its newest answer."""
    return not driver.find_elements(By.CSS_SELECTOR, "[aria-busy=true]")


def browser(microphone):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=360,800",
                 "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                 "--autoplay-policy=no-user-gesture-required", "--ignore-certificate-errors"]:
        options.add_argument(flag)
    # A phone's screen: 360 CSS pixels wide (a desktop window cannot be made that narrow).
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 360, "height": 780, "pixelRatio": 2}})
    if microphone:
        options.add_argument("--use-file-for-fake-audio-capture=" + microphone)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_text(driver, element_id, needle, timeout=60):
    """The element says `needle`, and the page has drawn what the action changed."""
    until(driver, lambda d: needle in d.find_element(By.ID, element_id).text and settled(d), timeout)
    return driver.find_element(By.ID, element_id).text


def button(driver, container, text):
    """The button labelled `text` in `container`, once the page has drawn it and is settled."""
    until(driver, lambda d: settled(d) and any(b.text == text for b in d.find_elements(By.CSS_SELECTOR, container + " button")), 30)
    return next(b for b in driver.find_elements(By.CSS_SELECTOR, container + " button") if b.text == text)


def pair(driver, link, steps, code=None):
    driver.get(link)
    field = driver.find_element(By.ID, "code")
    steps.append({"step": "pairing page", "prefilled": field.get_attribute("value"), "address": driver.current_url})
    if code is not None:
        field.clear()
        field.send_keys(code)
    driver.find_element(By.ID, "name").clear()
    driver.find_element(By.ID, "name").send_keys("Test phone")
    driver.find_element(By.CSS_SELECTOR, "#pair button").click()


def paired(driver, steps):
    until(driver, lambda d: d.find_elements(By.ID, "alarms") and d.find_element(By.ID, "alarms").text and settled(d), 30)
    progress(steps, {"step": "paired", "address": driver.current_url})


def unnamed_controls(driver):
    """The controls a screen reader would announce without a name, from Chromium's own
    accessibility tree (DevTools' Accessibility domain): each as "role: description"."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    roles = {"button", "checkbox", "switch", "textbox", "combobox", "spinbutton", "slider", "link", "radio", "searchbox", "meter"}
    unnamed = []
    for node in tree.get("nodes", []):
        role = (node.get("role") or {}).get("value")
        name = (node.get("name") or {}).get("value", "")
        if role in roles and not node.get("ignored") and not str(name).strip():
            unnamed.append(role + ": " + str((node.get("description") or {}).get("value", "")))
    return unnamed


def phone(driver, link, out, steps):
    wrong(driver, link, out, steps)
    # The page as drawn, status included (it names folders): no wider than the phone's screen. A
    # wider page is laid out wider and scaled down, and taps land beside the buttons they aim at.
    steps.append({"step": "fits", "pageWidth": driver.execute_script("return document.documentElement.scrollWidth"),
                  "screenWidth": driver.execute_script("return screen.width")})
    driver.find_element(By.ID, "record-title-input").send_keys("From my phone")
    driver.find_element(By.ID, "record").click()
    # About 4 s of the microphone, by the page's own clock, watching its level meter meanwhile.
    levels = []

    def recorded_enough(d):
        levels.append(float(d.find_element(By.ID, "level").get_attribute("value")))
        return d.find_element(By.ID, "record-time").text >= "0:04"
    WebDriverWait(driver, 30, poll_frequency=0.25).until(recorded_enough)
    driver.find_element(By.ID, "record-stop").click()
    # At once, as a person would: the refresh the import started is still waiting for its
    # playlists (held back, see LATE_ANSWER) when the playlist is made.
    until(driver, lambda d: "Imported" in d.find_element(By.ID, "message").text and "From my phone" in d.find_element(By.ID, "clips").text)
    steps.append({"step": "recorded", "message": driver.find_element(By.ID, "message").text, "peakLevel": max(levels)})
    driver.find_element(By.ID, "playlist-name").send_keys("morning")
    driver.find_element(By.CSS_SELECTOR, "#playlist-form button").click()
    wait_text(driver, "message", "Created morning")
    button(driver, "#playlists", "Add clip").click()
    steps.append({"step": "playlist", "message": wait_text(driver, "message", "Added a clip")})
    until(driver, lambda d: "From my phone" in d.find_element(By.ID, "playlists").text)
    # The import's late answer (no playlists yet) has reached the page by now: it drew nothing.
    until(driver, lambda d: d.execute_script("return window.lateAnswerRead === true") and settled(d), 30)
    steps.append({"step": "late answer", "playlists": driver.find_element(By.ID, "playlists").text})
    driver.find_element(By.CSS_SELECTOR, "#add-alarm summary").click()
    until(driver, lambda d: "morning" in [o.text for o in Select(d.find_element(By.ID, "alarm-target")).options], 30)
    Select(driver.find_element(By.ID, "alarm-target")).select_by_value("morning")
    time_field = driver.find_element(By.ID, "alarm-time")
    driver.execute_script("arguments[0].value = '07:30'", time_field)
    for day in ["mon", "tue", "wed", "thu", "fri"]:
        driver.find_element(By.CSS_SELECTOR, "#alarm-form fieldset input[value=%s]" % day).click()
    driver.find_element(By.CSS_SELECTOR, "#alarm-form button[type=submit]").click()
    steps.append({"step": "alarm", "message": wait_text(driver, "message", "Added the alarm at 07:30")})
    until(driver, lambda d: "07:30" in d.find_element(By.ID, "alarms").text, 30)
    driver.execute_script("document.getElementById('alarms-title').scrollIntoView()")
    width = driver.execute_script("return window.innerWidth")
    overflow = driver.execute_script("return document.documentElement.scrollWidth > Math.min(window.innerWidth, screen.width)")
    driver.save_screenshot(out + "/alarms-360px.png")
    steps.append({"step": "screenshot", "width": width, "overflows": overflow})
    steps.append({"step": "accessibility", "unnamed": unnamed_controls(driver)})
    switch = driver.find_element(By.CSS_SELECTOR, "#alarms input[role=switch]")
    steps.append({"step": "switch", "checked": switch.is_selected(), "label": switch.find_element(By.XPATH, "..").text,
                  "alarm": driver.find_element(By.ID, "alarms").text})
    switch.click()
    steps.append({"step": "voice off", "message": wait_text(driver, "message", "Voice off")})
    # Listen to the playlist whole, on the phone: the player loads the clip and plays.
    button(driver, "#playlists", "Play whole").click()
    until(driver, lambda d: d.execute_script("const p = document.getElementById('player'); return p.currentTime > 0.2 || p.error !== null"), 30)
    player = driver.execute_script("const p = document.getElementById('player'); return {src: p.src, error: p.error && p.error.code, duration: p.duration}")
    steps.append({"step": "listened", "src": player["src"], "error": player["error"], "duration": player["duration"]})
    # Add a second alarm and remove it again, confirming the question the page asks.
    driver.execute_script("arguments[0].value = '08:15'", driver.find_element(By.ID, "alarm-time"))
    for day in ["mon", "tue", "wed", "thu", "fri"]:
        driver.find_element(By.CSS_SELECTOR, "#alarm-form fieldset input[value=%s]" % day).click()
    driver.find_element(By.CSS_SELECTOR, "#alarm-form button[type=submit]").click()
    wait_text(driver, "message", "Added the alarm at 08:15")
    until(driver, lambda d: "08:15" in d.find_element(By.ID, "alarms").text, 30)
    item = next(li for li in driver.find_elements(By.CSS_SELECTOR, "#alarms > li") if "08:15" in li.text)
    next(b for b in item.find_elements(By.TAG_NAME, "button") if b.text == "Remove").click()
    until(driver, lambda d: d.switch_to.alert, 10)
    question = driver.switch_to.alert.text
    driver.switch_to.alert.accept()
    steps.append({"step": "removed", "question": question, "message": wait_text(driver, "message", "Removed the alarm at 08:15")})


def stop(driver, link, out, steps):
    """Snooze the first ring, then Stop the next one (the test rings the alarm twice: the second
    ring once this run has said "ring ended", the page's own word that the first is over)."""
    pair(driver, link, steps)
    paired(driver, steps)
    until(driver, lambda d: d.find_element(By.ID, "ringing").is_displayed())
    progress(steps, {"step": "ringing shown", "snooze": driver.find_element(By.ID, "snooze").is_displayed()})
    driver.find_element(By.ID, "snooze").click()
    progress(steps, {"step": "snoozed", "message": wait_text(driver, "message", "Snoozed")})
    until(driver, lambda d: not d.find_element(By.ID, "ringing").is_displayed(), 30)
    progress(steps, {"step": "ring ended"})
    until(driver, lambda d: d.find_element(By.ID, "ringing").is_displayed())
    progress(steps, {"step": "ringing again"})
    driver.find_element(By.ID, "stop").click()
    progress(steps, {"step": "stopped", "message": wait_text(driver, "message", "Stopped")})
    until(driver, lambda d: not d.find_element(By.ID, "ringing").is_displayed(), 30)


def wrong(driver, link, out, steps):
    code = link.split("code=")[1]
    wrong_code = ("B" if code[0] != "B" else "C") + code[1:]
    pair(driver, link, steps, code=wrong_code)
    steps.append({"step": "wrong code", "message": wait_text(driver, "message", "not right")})
    driver.find_element(By.ID, "code").clear()
    driver.find_element(By.ID, "code").send_keys(code)
    driver.find_element(By.CSS_SELECTOR, "#pair button").click()
    paired(driver, steps)


def main():
    scenario, link, out = sys.argv[1], sys.argv[2], sys.argv[3]
    microphone = sys.argv[4] if len(sys.argv) > 4 else None
    steps = []
    driver = browser(microphone)
    if scenario == "phone":
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LATE_ANSWER % (json.dumps("/api/playlists"), 2, 1500)})
    ok = False
    try:
        {"phone": phone, "stop": stop}[scenario](driver, link, out, steps)
        ok = True
    except Exception as error:  # the test reads what went wrong from the output
        steps.append({"step": "failed", "error": type(error).__name__ + ": " + str(error).splitlines()[0] if str(error) else type(error).__name__,
                      "message": driver.find_element(By.ID, "message").text if driver.find_elements(By.ID, "message") else None,
                      "problem": driver.find_element(By.ID, "problem").text if driver.find_elements(By.ID, "problem") else None})
        driver.save_screenshot(out + "/failure.png")
    finally:
        driver.quit()
    print(json.dumps({"ok": ok, "steps": steps}))


if __name__ == "__main__":
    main()
